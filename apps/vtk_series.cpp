#include <noether/apps/vtk_series.hpp>

#include <cstdio>

namespace noether {
namespace {

constexpr std::string_view kStepPrefix = "step_";

/// A file of a previous run's series: step_<digits>.vtp, or its temporary file.
bool is_step_file(std::string_view name) {
  if (!name.starts_with(kStepPrefix)) return false;
  name.remove_prefix(kStepPrefix.size());
  if (name.ends_with(".tmp")) name.remove_suffix(4);
  if (!name.ends_with(".vtp")) return false;
  name.remove_suffix(4);
  return !name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

VtkSeries::VtkSeries(const OutputDirectory& directory, VtkDrawing drawing)
    : parent_(directory), directory_(directory, kDirectoryName), drawing_(std::move(drawing)) {
  for (const std::string& name : directory_.entries())
    if (is_step_file(name)) directory_.remove(name);
}

std::string VtkSeries::file_name(std::int64_t step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%08lld", static_cast<long long>(step));
  return std::string(kDirectoryName) + "/" + std::string(kStepPrefix) + digits + ".vtp";
}

void VtkSeries::write(const State& state, double energy, double constraint_residual) {
  drawing_.draw(state, energy, constraint_residual, data_);
  const std::string name = file_name(state.step);
  directory_.replace(std::string_view(name).substr(std::string_view(kDirectoryName).size() + 1), vtp_file(data_),
                     OutputDirectory::Durability::deferred);
  steps_.push_back({state.t, name});
}

void VtkSeries::commit() {
  directory_.sync();
  parent_.replace(kCollectionName, pvd_file(steps_));
}

}  // namespace noether
