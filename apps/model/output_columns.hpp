#pragma once
/// The names the output files give a model's quantities, made here once: the columns of
/// timeseries.csv (apps/timeseries_csv.hpp) and so the keys of final_state.json, which the model
/// builder checks with probe_name_clash so that no two quantities share a name (a CSV or JSON
/// reader would keep one of the two values).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <noether/apps/model/model.hpp>
#include <noether/engine/reaction.hpp>

namespace noether {

/// What a coordinate's column starts with, its label following.
inline constexpr std::string_view kCoordinateColumnPrefix = "q:";

/// "q:<label>": the column of the coordinate labelled `label` (System::coordinate_label).
std::string coordinate_column(std::string_view label);

/// "<probe>.x", "<probe>.y", "<probe>.z" for axis 0, 1, 2: a column of the probe named `probe`.
std::string probe_column(std::string_view probe, Index axis);

/// One component of a joint's reaction as timeseries.csv writes it: "fx", "fy", "fz" (force),
/// "mx", "my", "mz" (moment about the joint point), world frame.
struct ReactionComponent {
  std::string_view name;
  double value;
};

/// The components a reaction has: 3D bodies fx fy fz mx my mz, planar bodies fx fy mz, point
/// masses the force alone (Reaction::dimension, has_moment).
std::vector<ReactionComponent> reaction_components(const Reaction& reaction);

/// "reaction:<joint>.<component>". No other column starts with "reaction:", and the component
/// after the last '.' tells two joints' columns apart, so these never collide.
std::string reaction_column(std::string_view joint, std::string_view component);

/// Why a probe named `name` with `dimension` axes cannot write its columns beside those of the
/// system's coordinates, of the `earlier` probes and of the conserved momentum components:
/// an earlier probe has the name ("probe 0 is named 'tip' too"), or a column of the probe is a
/// coordinate's (a probe named "q:bar.phi" writes q:bar.phi.x) or a momentum component's (a probe
/// named "linear_momentum"); empty when none. The other columns (t, energy, g:<row>, ...) hold no
/// '.' or end in ']', and no probe column does.
std::string probe_name_clash(const System& system, std::span<const Probe> earlier, const ConservedMomenta& momenta,
                             const std::string& name, Index dimension);

}  // namespace noether
