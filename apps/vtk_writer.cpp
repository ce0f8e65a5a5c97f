#include <noether/apps/vtk_writer.hpp>

#include <bit>
#include <cstring>

#include <noether/apps/timeseries_csv.hpp>

namespace noether {
namespace {

constexpr const char* kByteOrder = std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";

/// The XML elements of the arrays and their bytes in the appended block, in the order written.
class AppendedArrays {
 public:
  /// The DataArray element of values (name, type, components, tuples: field data needs them) and
  /// its block: the byte count as UInt64, then the values.
  template <class T>
  void add(std::string& xml, const std::string& name, const char* type, int components, const std::vector<T>& values,
           const char* indent) {
    const std::uint64_t bytes = values.size() * sizeof(T);
    xml += std::string(indent) + "<DataArray type=\"" + type + "\" Name=\"" + name + "\" NumberOfComponents=\"" +
           std::to_string(components) + "\" NumberOfTuples=\"" + std::to_string(values.size() / static_cast<std::size_t>(components)) +
           "\" format=\"appended\" offset=\"" + std::to_string(block_.size()) + "\"/>\n";
    append_bytes(&bytes, sizeof bytes);
    append_bytes(values.data(), bytes);
  }
  void add(std::string& xml, const VtkArray& array, const char* indent) {
    std::visit([&](const auto& values) { add(xml, array.name, type_name(values), array.components, values, indent); },
               array.values);
  }
  const std::string& block() const { return block_; }

 private:
  static const char* type_name(const std::vector<double>&) { return "Float64"; }
  static const char* type_name(const std::vector<std::int32_t>&) { return "Int32"; }
  static const char* type_name(const std::vector<std::int64_t>&) { return "Int64"; }
  void append_bytes(const void* data, std::size_t size) {
    const std::size_t at = block_.size();
    block_.resize(at + size);
    if (size > 0) std::memcpy(block_.data() + at, data, size);
  }
  std::string block_;
};

/// A cell list: `connectivity` in cells of `points_per_cell` points, its offsets (the end of each cell).
void add_cells(std::string& xml, AppendedArrays& arrays, const char* element, const std::vector<std::int64_t>& connectivity,
               std::int64_t points_per_cell) {
  std::vector<std::int64_t> offsets(connectivity.size() / static_cast<std::size_t>(points_per_cell));
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = static_cast<std::int64_t>(i + 1) * points_per_cell;
  xml += std::string("      <") + element + ">\n";
  arrays.add(xml, "connectivity", "Int64", 1, connectivity, "        ");
  arrays.add(xml, "offsets", "Int64", 1, offsets, "        ");
  xml += std::string("      </") + element + ">\n";
}

void add_data(std::string& xml, AppendedArrays& arrays, const char* element, const std::vector<VtkArray>& data,
              const char* indent) {
  const std::string inner = std::string(indent) + "  ";
  xml += std::string(indent) + "<" + element + ">\n";
  for (const VtkArray& array : data) arrays.add(xml, array, inner.c_str());
  xml += std::string(indent) + "</" + element + ">\n";
}

}  // namespace

std::string vtp_file(const VtkPolyData& data) {
  AppendedArrays arrays;
  std::string xml = std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"") +
                    kByteOrder + "\" header_type=\"UInt64\">\n  <PolyData>\n";
  add_data(xml, arrays, "FieldData", data.field_data, "    ");
  xml += "    <Piece NumberOfPoints=\"" + std::to_string(data.points.size() / 3) + "\" NumberOfVerts=\"" +
         std::to_string(data.vertices.size()) + "\" NumberOfLines=\"" + std::to_string(data.lines.size() / 2) +
         "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n";
  add_data(xml, arrays, "PointData", data.point_data, "      ");
  add_data(xml, arrays, "CellData", data.cell_data, "      ");
  xml += "      <Points>\n";
  arrays.add(xml, "Points", "Float64", 3, data.points, "        ");
  xml += "      </Points>\n";
  add_cells(xml, arrays, "Verts", data.vertices, 1);
  add_cells(xml, arrays, "Lines", data.lines, 2);
  xml += "    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _";
  xml += arrays.block();
  xml += "\n  </AppendedData>\n</VTKFile>\n";
  return xml;
}

std::string pvd_file(std::span<const VtkTimeStep> steps) {
  std::string xml = std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"") +
                    kByteOrder + "\">\n  <Collection>\n";
  for (const VtkTimeStep& step : steps)
    xml += "    <DataSet timestep=\"" + format_double(step.t) + "\" group=\"\" part=\"0\" file=\"" + step.file + "\"/>\n";
  xml += "  </Collection>\n</VTKFile>\n";
  return xml;
}

}  // namespace noether
