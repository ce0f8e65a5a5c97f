#include <noether/apps/vtk_writer.hpp>

#include <bit>
#include <cstring>
#include <string_view>

#include <noether/apps/timeseries_csv.hpp>

namespace noether {
namespace {

constexpr const char* kByteOrder = std::endian::native == std::endian::little ? "LittleEndian" : "BigEndian";

const char* type_name(const std::vector<double>&) { return "Float64"; }
const char* type_name(const std::vector<std::int32_t>&) { return "Int32"; }
const char* type_name(const std::vector<std::int64_t>&) { return "Int64"; }

void open_element(std::string& xml, std::string_view indent, std::string_view element) {
  for (const std::string_view piece : {indent, std::string_view("<"), element, std::string_view(">\n")}) xml += piece;
}
void close_element(std::string& xml, std::string_view indent, std::string_view element) {
  for (const std::string_view piece : {indent, std::string_view("</"), element, std::string_view(">\n")}) xml += piece;
}

/// The XML elements of the arrays and their bytes in the appended block, in the order written.
class AppendedArrays {
 public:
  /// Reserves the block for data's arrays, with their byte counts and the cell offsets.
  explicit AppendedArrays(const VtkPolyData& data) {
    std::size_t bytes = 8 * (data.points.size() + 2 * data.vertices.size() + 2 * data.lines.size() + 16);
    for (const auto* list : {&data.point_data, &data.cell_data, &data.field_data})
      for (const VtkArray& array : *list)
        bytes += 8 + std::visit([](const auto& v) { return v.size() * sizeof(v[0]); }, array.values);
    block_.reserve(bytes);
  }
  std::size_t capacity() const { return block_.capacity(); }

  /// The DataArray element of values (name, type, components, tuples: field data needs them) and
  /// its block: the byte count as UInt64, then the values.
  template <class T>
  void add(std::string& xml, std::string_view name, const char* type, int components, const std::vector<T>& values,
           std::string_view indent) {
    const std::uint64_t bytes = values.size() * sizeof(T);
    for (const std::string_view piece : {indent, std::string_view("<DataArray type=\""), std::string_view(type),
                                         std::string_view("\" Name=\""), name, std::string_view("\" NumberOfComponents=\"")})
      xml += piece;
    xml += std::to_string(components);
    xml += "\" NumberOfTuples=\"";
    xml += std::to_string(values.size() / static_cast<std::size_t>(components));
    xml += "\" format=\"appended\" offset=\"";
    xml += std::to_string(block_.size());
    xml += "\"/>\n";
    append_bytes(&bytes, sizeof bytes);
    append_bytes(values.data(), bytes);
  }
  void add(std::string& xml, const VtkArray& array, std::string_view indent) {
    std::visit([&](const auto& values) { add(xml, array.name, type_name(values), array.components, values, indent); },
               array.values);
  }
  const std::string& block() const { return block_; }

 private:
  void append_bytes(const void* data, std::size_t size) {
    const std::size_t at = block_.size();
    block_.resize(at + size);
    if (size > 0) std::memcpy(block_.data() + at, data, size);
  }
  std::string block_;
};

/// A cell list: `connectivity` in cells of `points_per_cell` points, its offsets (the end of each cell).
void add_cells(std::string& xml, AppendedArrays& arrays, std::string_view element,
               const std::vector<std::int64_t>& connectivity, std::int64_t points_per_cell) {
  std::vector<std::int64_t> offsets(connectivity.size() / static_cast<std::size_t>(points_per_cell));
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = static_cast<std::int64_t>(i + 1) * points_per_cell;
  open_element(xml, "      ", element);
  arrays.add(xml, "connectivity", "Int64", 1, connectivity, "        ");
  arrays.add(xml, "offsets", "Int64", 1, offsets, "        ");
  close_element(xml, "      ", element);
}

void add_data(std::string& xml, AppendedArrays& arrays, std::string_view element, const std::vector<VtkArray>& data,
              std::string_view indent, std::string_view inner) {
  open_element(xml, indent, element);
  for (const VtkArray& array : data) arrays.add(xml, array, inner);
  close_element(xml, indent, element);
}

/// The PDataArray elements of a .pvtp naming the arrays of `data` in `element` (PPointData, PCellData).
void declare_data(std::string& xml, std::string_view element, const std::vector<VtkArray>& data) {
  open_element(xml, "    ", element);
  for (const VtkArray& array : data) {
    xml += "      <PDataArray type=\"";
    xml += std::visit([](const auto& values) { return type_name(values); }, array.values);
    xml += "\" Name=\"" + array.name + "\" NumberOfComponents=\"" + std::to_string(array.components) + "\"/>\n";
  }
  close_element(xml, "    ", element);
}

}  // namespace

std::string vtp_file(const VtkPolyData& data) {
  AppendedArrays arrays(data);
  std::string xml;
  xml.reserve(4096 + arrays.capacity());
  xml = std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"") +
                    kByteOrder + "\" header_type=\"UInt64\">\n  <PolyData>\n";
  add_data(xml, arrays, "FieldData", data.field_data, "    ", "      ");
  xml += "    <Piece NumberOfPoints=\"" + std::to_string(data.points.size() / 3) + "\" NumberOfVerts=\"" +
         std::to_string(data.vertices.size()) + "\" NumberOfLines=\"" + std::to_string(data.lines.size() / 2) +
         "\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n";
  add_data(xml, arrays, "PointData", data.point_data, "      ", "        ");
  add_data(xml, arrays, "CellData", data.cell_data, "      ", "        ");
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

std::string pvtp_file(const VtkPolyData& layout, std::span<const std::string> pieces) {
  std::string xml = std::string("<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"1.0\" byte_order=\"") +
                    kByteOrder + "\" header_type=\"UInt64\">\n  <PPolyData GhostLevel=\"0\">\n";
  declare_data(xml, "PPointData", layout.point_data);
  declare_data(xml, "PCellData", layout.cell_data);
  xml += "    <PPoints>\n      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
         "    </PPoints>\n";
  for (const std::string& piece : pieces) xml += "    <Piece Source=\"" + piece + "\"/>\n";
  xml += "  </PPolyData>\n</VTKFile>\n";
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
