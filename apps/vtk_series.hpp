#pragma once
/// The motion of a run as a VTK time series (docs/output.md, "vtk/ and motion.pvd"): one PolyData
/// file vtk/step_<step>.vtp per written state and, at the end, motion.pvd listing them with their
/// times, for ParaView (File > Open motion.pvd).
#include <string>
#include <vector>

#include <noether/apps/output_directory.hpp>
#include <noether/apps/vtk_drawing.hpp>
#include <noether/apps/vtk_writer.hpp>

namespace noether {

class VtkSeries {
 public:
  static constexpr const char* kDirectoryName = "vtk";
  static constexpr const char* kCollectionName = "motion.pvd";

  /// Opens (creates) the subdirectory vtk of directory, which must outlive this object, and
  /// removes the step files a previous run left there. Throws OutputError when it cannot.
  VtkSeries(const OutputDirectory& directory, VtkDrawing drawing);

  /// Writes vtk/step_<step>.vtp (step zero-padded to 8 digits) of state, drawn with its energy
  /// and max|g|: under a temporary name, renamed into place, its sync deferred to commit.
  /// Throws OutputError when it cannot; the files written before stay listed.
  void write(const State& state, double energy, double constraint_residual);
  /// Commits the step files to the disk (OutputDirectory::sync) and writes motion.pvd, atomically,
  /// listing every file written. Throws OutputError when either fails (no motion.pvd then).
  void commit();

  /// The file name of the step's drawing, relative to the output directory: "vtk/step_00000042.vtp".
  static std::string file_name(std::int64_t step);
  std::size_t files_written() const { return steps_.size(); }

 private:
  const OutputDirectory& parent_;
  OutputDirectory directory_;
  VtkDrawing drawing_;
  VtkPolyData data_;
  std::vector<VtkTimeStep> steps_;
};

}  // namespace noether
