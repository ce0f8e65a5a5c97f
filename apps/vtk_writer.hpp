#pragma once
/// A small writer of VTK's XML formats (the "VTK XML file formats" of the VTK User's Guide): one
/// PolyData file (.vtp) with its arrays appended as raw binary, and the collection file (.pvd) that
/// lists a time series of them. VTK's library is not a dependency: ParaView and VTK's readers
/// (vtkXMLPolyDataReader, vtkPVDReader) open what this writes (tests/apps/check_vtk_output.py).
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

/// A data set of a time series: its time and its file, relative to the .pvd.
struct VtkTimeStep {
  double t = 0.0;
  std::string file;
};

/// The .pvd collection of steps, in their order, each `<DataSet timestep="t" file="..."/>` with
/// t in 17 significant digits.
std::string pvd_file(std::span<const VtkTimeStep> steps);

}  // namespace noether
