#pragma once
/// The motion of a run as a VTK time series (docs/output.md, "vtk/ and motion.pvd"): one PolyData
/// file vtk/step_<step>.vtp per written state and, at the end, motion.pvd listing them with their
/// times, for ParaView (File > Open motion.pvd).
///
/// Over several processes (docs/output.md, "Over several processes") each process draws its part
/// of the model (DrawnPart) into its own piece, vtk/step_<step>_<rank>.vtp; rank 0 writes the
/// drawing's index vtk/step_<step>.pvtp naming the pieces, and motion.pvd lists the indices. The
/// pieces go through the .vtp writer one process uses (vtk_writer.hpp) and the index is written by
/// hand (pvtp_file, a dozen lines), not by VTK's vtkXMLPPolyDataWriter: the program does not link
/// VTK (only the tests read with it, through Debian's python3-vtk9), a piece is then the bytes one
/// process writes of the same cells (the points bit for bit), fixed by our code alone, and which
/// process writes the index is decided with the run's own Distribution, where VTK's parallel
/// writer would want VTK's MPI controller (vtkMPIController) beside it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <noether/apps/output_directory.hpp>
#include <noether/apps/vtk_drawing.hpp>
#include <noether/apps/vtk_writer.hpp>
#include <noether/engine/distribution.hpp>

namespace noether {

class VtkSeries {
 public:
  static constexpr const char* kDirectoryName = "vtk";
  static constexpr const char* kCollectionName = "motion.pvd";

  /// One process (processes nullptr), or rank 0 of processes: opens (creates) the subdirectory vtk
  /// of directory and removes the drawings a previous run left there (of one process or of
  /// several). directory, and processes, must outlive this object. Over several processes the
  /// others then open vtk/ (the constructor below; collective with it). Throws OutputError when it
  /// cannot; SharedOutputError, on every process, when another process cannot open vtk/.
  VtkSeries(const OutputDirectory& directory, VtkDrawing drawing, const Distribution* processes = nullptr);
  /// Rank r > 0 of processes, which must outlive this object: opens directory/vtk, which rank 0
  /// has made (collective with the constructor above), without creating anything, and writes its
  /// pieces there. Throws SharedOutputError, on every process, when a process cannot open vtk/ (a
  /// directory that is not on a file system every process shares).
  VtkSeries(const std::filesystem::path& directory, const FileCalls& calls, VtkDrawing drawing,
            const Distribution& processes);

  /// The drawing of state, with its energy and max|g|: one process writes vtk/step_<step>.vtp (step
  /// zero-padded to 8 digits); over several (collective) each writes its piece and, when every
  /// process wrote its own, rank 0 the index. Each file is written under a temporary name, renamed
  /// into place, its sync deferred to commit. Throws OutputError when this process cannot write its
  /// file (over several: SharedOutputError on every process when one could not write its piece;
  /// OutputError on rank 0 alone when it cannot write the index); the drawings before stay listed.
  void write(const State& state, double energy, double constraint_residual);
  /// Over several processes, collective: each commits its pieces to the disk
  /// (OutputDirectory::sync), and they agree (SharedOutputError on every process when one could
  /// not); after it the processes but rank 0 are done. Nothing in one process.
  void sync_pieces();
  /// One process or rank 0: commits its files to the disk (OutputDirectory::sync) and writes
  /// motion.pvd, atomically, listing every drawing written. Throws OutputError when either fails
  /// (no motion.pvd then). Over several processes after sync_pieces, or without it when rank 0
  /// ends the run alone (ends_on_every_process): motion.pvd then lists the drawings whose pieces
  /// every process wrote, without their syncs.
  void commit();

  /// The file name of the step's drawing in one process, relative to the output directory:
  /// "vtk/step_00000042.vtp".
  static std::string file_name(std::int64_t step);
  /// Over several processes: the step's index, "vtk/step_00000042.pvtp", and rank's piece, in vtk/,
  /// "step_00000042_1.vtp".
  static std::string index_name(std::int64_t step);
  static std::string piece_name(std::int64_t step, int rank);
  std::size_t files_written() const { return steps_.size(); }

 private:
  /// The name of `name` in vtk/: "vtk/step_00000042.pvtp" -> "step_00000042.pvtp".
  static std::string_view in_directory(std::string_view name);

  const OutputDirectory* parent_;   ///< nullptr on the processes but rank 0
  const Distribution* processes_;   ///< nullptr in one process
  std::optional<OutputDirectory> directory_;
  VtkDrawing drawing_;
  VtkPolyData data_;
  std::vector<VtkTimeStep> steps_;  ///< the drawings written (rank 0, or the only process)
};

}  // namespace noether
