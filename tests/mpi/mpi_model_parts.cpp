// The processes' parts of a model (build_model_part) measure what the whole model measures: the
// energy as a sum over the processes, each constraint's rows at their global numbers (a part's
// rows numbered after the lower ranks'), the momenta p = M v once the ghosts' shares are summed
// into their owners (docs/distributed.md, stage 3 read off the code, steps 1, 2 and 6).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/model/description_coupling.hpp>
#include <noether/apps/model/model_builder.hpp>
#include <noether/apps/model/model_part.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/ghost_exchange.hpp>
#include <noether/engine/measures.hpp>
#include <noether/engine/system_part.hpp>

#include "mpi/mpi_world.hpp"

using namespace noether;

namespace {

/// A state off the constraints and away from rest: the initial one moved by a smooth pattern.
Vector moved(const Vector& x, double amount) {
  Vector out = x;
  for (Index i = 0; i < x.size(); ++i) out(i) += amount * std::sin(0.7 * i + 0.3);
  return out;
}

void check_measures(const char* scenario, ParameterValues values) {
  CAPTURE(scenario);
  const Scenario& s = find_scenario(scenario);
  const ModelDescription description = s.describe(resolve_parameters(s, values));
  const Model whole = build_model(description);
  const std::vector<int> processes = block_processes(description_coupling(description), testing::world().ranks());
  const ModelPart part = build_model_part(description, processes, testing::world().rank());
  const System& mine = *part.system;

  const auto [global, owner] = part_coordinates(part, processes);
  const Vector q = moved(whole.initial.q, 1e-3), v = moved(whole.initial.v, 0.5);
  Vector q_part(mine.num_coordinates()), v_part(mine.num_coordinates());
  for (Index i = 0; i < mine.num_coordinates(); ++i) {
    q_part(i) = q(global[static_cast<std::size_t>(i)]);
    v_part(i) = v(global[static_cast<std::size_t>(i)]);
  }

  std::vector<double> energy{kinetic_energy(mine, q_part, v_part) + potential_energy(mine, q_part)};
  testing::world().sum(energy);
  const double expected = kinetic_energy(*whole.system, q, v) + potential_energy(*whole.system, q);
  CHECK(std::abs(energy[0] - expected) <= 1e-13 * std::abs(expected));

  Vector g_whole(whole.system->num_multipliers()), g_part(mine.num_multipliers());
  calc_constraint_values(*whole.system, q, g_whole);
  calc_constraint_values(mine, q_part, g_part);
  std::map<std::string, Index> whole_rows;
  for (const auto& c : whole.system->constraints()) whole_rows[c.element->name()] = c.first_multiplier;
  const SystemPart numbering = system_part(testing::world(), part, processes);
  CHECK(numbering.whole_multipliers == whole.system->num_multipliers());
  const Index before = numbering.first_multiplier;
  std::vector<double> numbered(static_cast<std::size_t>(whole.system->num_multipliers()), 0.0);
  for (const auto& c : mine.constraints()) {
    CAPTURE(c.element->name());
    const Index rows = c.element->num_equations(), at = whole_rows.at(c.element->name());
    CHECK(g_part.segment(c.first_multiplier, rows) == g_whole.segment(at, rows));  // the same inputs, the same bits
    for (Index r = 0; r < rows; ++r) numbered[static_cast<std::size_t>(before + c.first_multiplier + r)] += 1.0;
  }
  testing::world().sum(numbered);
  for (const double times : numbered) CHECK(times == 1.0);  // the parts' rows number the whole's once each
  const std::vector<Index> rows = whole_multiplier_rows(testing::world(), part);  // the whole's own order
  REQUIRE(static_cast<Index>(rows.size()) == mine.num_multipliers());
  for (Index r = 0; r < mine.num_multipliers(); ++r)
    CHECK(whole.system->multiplier_label(rows[static_cast<std::size_t>(r)]) == mine.multiplier_label(r));

  // Each invariant over the bodies a part owns (none: an empty value): summed, the whole's.
  REQUIRE(part.invariants.size() == whole.invariants.size());
  const Vector momentum = moved(whole.initial.v, 0.3);
  Vector momentum_part(mine.num_coordinates());
  for (Index i = 0; i < mine.num_coordinates(); ++i) momentum_part(i) = momentum(global[static_cast<std::size_t>(i)]);
  const State whole_momenta{0, 0.5, q, v, momentum}, part_momenta{0, 0.5, q_part, v_part, momentum_part};
  for (std::size_t i = 0; i < whole.invariants.size(); ++i) {
    CAPTURE(whole.invariants[i].name);
    const Vector expected_value = whole.invariants[i].value(whole_momenta);
    const Vector own = part.invariants[i].value(part_momenta);
    std::vector<double> value(static_cast<std::size_t>(expected_value.size()), 0.0);
    if (own.size() > 0) {
      REQUIRE(own.size() == expected_value.size());
      std::copy(own.begin(), own.end(), value.begin());
    }
    testing::world().sum(value);
    for (Index k = 0; k < expected_value.size(); ++k)  // the parts' partial sums add in another order
      CHECK(std::abs(value[static_cast<std::size_t>(k)] - expected_value(k)) <= 1e-14 * (1.0 + expected_value.norm()));
  }

  // Each probe is evaluated by one process, the others add zeros: the sum is the whole's position.
  REQUIRE(part.probes.size() == whole.probes.size());
  const State whole_state{0, 0.5, q, v}, part_state{0, 0.5, q_part, v_part};
  for (std::size_t i = 0; i < whole.probes.size(); ++i) {
    CAPTURE(whole.probes[i].name);
    const Vector expected_position = whole.probes[i].position(whole_state);
    std::vector<double> position(static_cast<std::size_t>(expected_position.size()), 0.0);
    if (part.probes[i].position) {
      const Vector own = part.probes[i].position(part_state);
      REQUIRE(own.size() == expected_position.size());
      std::copy(own.begin(), own.end(), position.begin());
    }
    testing::world().sum(position);
    CHECK(Vector(Eigen::Map<const Vector>(position.data(), expected_position.size())) == expected_position);
  }

  Vector p_whole(whole.system->num_coordinates()), p_part(mine.num_coordinates());
  calc_momentum(*whole.system, q, v, p_whole);
  calc_momentum(mine, q_part, v_part, p_part);
  GhostExchange(testing::world(), global, owner).sum_shared(p_part);
  for (Index i = 0; i < mine.num_coordinates(); ++i) {
    const double expected_p = p_whole(global[static_cast<std::size_t>(i)]);
    CHECK(std::abs(p_part(i) - expected_p) <= 1e-15 * (1.0 + std::abs(expected_p)));
  }
}

}  // namespace

TEST_CASE("model parts: energy, constraint rows and momenta of the processes' parts are the whole model's") {
  check_measures("chain3d", {{"n", 13}});
  check_measures("chain2d", {{"n", 20}});
  check_measures("nfourbar", {{"n", 6}});
  check_measures("grid2d", {{"k", 4}});
  check_measures("double-fourbar", {});
  check_measures("slider-crank", {});
  check_measures("constrained-particles", {});  // invariants over listed bodies
}
