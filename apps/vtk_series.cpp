#include <noether/apps/vtk_series.hpp>

#include <cstdio>

#include <noether/apps/output_agreement.hpp>

namespace noether {
namespace {

constexpr std::string_view kStepPrefix = "step_";

/// Whether s is one or more decimal digits.
bool digits(std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos; }

/// A drawing of a previous run, of one process or of several: step_<digits>.vtp,
/// step_<digits>_<digits>.vtp (a piece), step_<digits>.pvtp (an index), or the temporary file of one.
bool is_step_file(std::string_view name) {
  if (!name.starts_with(kStepPrefix)) return false;
  name.remove_prefix(kStepPrefix.size());
  if (name.ends_with(".tmp")) name.remove_suffix(4);
  if (name.ends_with(".pvtp")) return digits(name.substr(0, name.size() - 5));
  if (!name.ends_with(".vtp")) return false;
  name.remove_suffix(4);
  const std::size_t rank = name.find('_');
  return digits(name.substr(0, rank)) && (rank == std::string_view::npos || digits(name.substr(rank + 1)));
}

/// "step_00000042": the step zero-padded to 8 digits.
std::string step_stem(std::int64_t step) {
  char padded[32];
  std::snprintf(padded, sizeof padded, "%08lld", static_cast<long long>(step));
  return std::string(kStepPrefix) + padded;
}

}  // namespace

VtkSeries::VtkSeries(const OutputDirectory& directory, VtkDrawing drawing, const Distribution* processes)
    : parent_(&directory), processes_(processes), drawing_(std::move(drawing)) {
  directory_.emplace(directory, kDirectoryName);
  for (const std::string& name : directory_->entries())
    if (is_step_file(name)) directory_->remove(name);
  if (!processes_) return;
  agree_on_output(*processes_, std::nullopt);  // vtk/ is ready: the others open it
  agree_on_output(*processes_, std::nullopt);  // and say whether they could
}

VtkSeries::VtkSeries(const std::filesystem::path& directory, const FileCalls& calls, VtkDrawing drawing,
                     const Distribution& processes)
    : parent_(nullptr), processes_(&processes), drawing_(std::move(drawing)) {
  agree_on_output(processes, std::nullopt);  // rank 0 has made vtk/
  write_agreed(processes, [&] {
    const std::filesystem::path vtk = directory / kDirectoryName;
    std::error_code error;
    if (!std::filesystem::is_directory(vtk, error))
      throw OutputError("'" + vtk.string() + "', which rank 0 made, is not a directory here: the output directory " +
                        "must be on a file system that every process of the run shares");
    directory_.emplace(OutputDirectory(directory, calls, OutputDirectory::Lock::none), kDirectoryName);
  });
}

std::string VtkSeries::file_name(std::int64_t step) {
  return std::string(kDirectoryName) + "/" + step_stem(step) + ".vtp";
}

std::string VtkSeries::index_name(std::int64_t step) {
  return std::string(kDirectoryName) + "/" + step_stem(step) + ".pvtp";
}

std::string VtkSeries::piece_name(std::int64_t step, int rank) {
  return step_stem(step) + "_" + std::to_string(rank) + ".vtp";
}

std::string_view VtkSeries::in_directory(std::string_view name) {
  return name.substr(std::string_view(kDirectoryName).size() + 1);
}

void VtkSeries::write(const State& state, double energy, double constraint_residual) {
  drawing_.draw(state, energy, constraint_residual, data_);
  if (!processes_) {
    const std::string name = file_name(state.step);
    directory_->replace(in_directory(name), vtp_file(data_), OutputDirectory::Durability::deferred);
    steps_.push_back({state.t, name});
    return;
  }
  write_agreed(*processes_, [&] {
    directory_->replace(piece_name(state.step, processes_->rank()), vtp_file(data_),
                        OutputDirectory::Durability::deferred);
  });
  if (processes_->rank() != 0) return;
  std::vector<std::string> pieces;
  for (int rank = 0; rank < processes_->ranks(); ++rank) pieces.push_back(piece_name(state.step, rank));
  const std::string index = index_name(state.step);
  directory_->replace(in_directory(index), pvtp_file(data_, pieces), OutputDirectory::Durability::deferred);
  steps_.push_back({state.t, index});
}

void VtkSeries::sync_pieces() {
  if (!processes_) return;
  write_agreed(*processes_, [&] { directory_->sync(); });
}

void VtkSeries::commit() {
  directory_->sync();
  parent_->replace(kCollectionName, pvd_file(steps_));
}

}  // namespace noether
