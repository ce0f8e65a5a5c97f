#pragma once
/// A small writer of VTK's XML formats (the "VTK XML file formats" of the VTK User's Guide): one
/// PolyData file (.vtp) with its arrays appended as raw binary, the parallel index (.pvtp) of a
/// PolyData written in pieces, one .vtp each, and the collection file (.pvd) that lists a time
/// series of either. VTK's library is not a dependency: ParaView and VTK's readers
/// (vtkXMLPolyDataReader, vtkXMLPPolyDataReader, vtkPVDReader) open what this writes
/// (tests/apps/check_vtk_output.py, tests/mpi/check_mpi_vtk.py).
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace noether {

/// A named array of `components` values per tuple (a point, a cell, or one tuple of field data).
struct VtkArray {
  std::string name;
  int components = 1;
  std::variant<std::vector<double>, std::vector<std::int32_t>, std::vector<std::int64_t>> values;
};

/// Points (3 coordinates each), vertex cells (one point index each) and line cells (two point
/// indices each), with data on the points, on the cells (the vertices first, then the lines, as
/// VTK numbers them) and on the data set as a whole (field data).
struct VtkPolyData {
  std::vector<double> points;
  std::vector<std::int64_t> vertices;
  std::vector<std::int64_t> lines;
  std::vector<VtkArray> point_data, cell_data, field_data;
};

/// The .vtp file of data: XML header, every array as format="appended" in an
/// `<AppendedData encoding="raw">` block (header_type UInt64, the machine's byte order, as
/// byte_order says), values bit for bit.
std::string vtp_file(const VtkPolyData& data);

/// The .pvtp index of a PolyData written in pieces (VTK's PPolyData, GhostLevel 0): the arrays of
/// its point and cell data and its points as `layout` has them (names, types, components: every
/// piece has the same arrays), and each piece's file, relative to the .pvtp, in order. VTK's
/// readers take the field data from the pieces.
std::string pvtp_file(const VtkPolyData& layout, std::span<const std::string> pieces);

/// A data set of a time series: its time and its file, relative to the .pvd.
struct VtkTimeStep {
  double t = 0.0;
  std::string file;
};

/// The .pvd collection of steps, in their order, each `<DataSet timestep="t" file="..."/>` with
/// t in 17 significant digits.
std::string pvd_file(std::span<const VtkTimeStep> steps);

}  // namespace noether
