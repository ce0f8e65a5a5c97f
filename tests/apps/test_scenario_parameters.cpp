/// The values a scenario parameter accepts (ParameterRange, apps/scenarios/scenario.hpp) and when
/// a run checks them: refused before anything is built, naming the parameter, the value and what
/// is accepted.
#include <limits>
#include <string>

#include <doctest/doctest.h>

#include <noether/apps/runner.hpp>
#include <noether/apps/scene_export.hpp>
#include <noether/apps/scenarios/scenario.hpp>
#include <noether/engine/format.hpp>

using namespace noether;

namespace {

constexpr double kSubnormal = 1e-320;
const std::string kNormalRule = "must be a normal number, at least 2.2250738585072014e-308";

}  // namespace

TEST_CASE("a magnitude takes 0 or a normal number, never a subnormal one") {
  const double smallest = std::numeric_limits<double>::min();
  CHECK(ParameterRange::positive().contains(smallest));
  CHECK_FALSE(ParameterRange::positive().contains(kSubnormal));
  CHECK(ParameterRange::positive().refusal(kSubnormal) ==
        kNormalRule + ", got 1e-320 (a subnormal value keeps too few digits for the equations)");
  CHECK(ParameterRange::nonnegative().contains(0.0));
  CHECK_FALSE(ParameterRange::nonnegative().contains(kSubnormal));
  CHECK(ParameterRange::nonnegative().refusal(kSubnormal).starts_with(kNormalRule + " (or 0), got 1e-320"));
  CHECK(ParameterRange::positive().refusal(-1.0) == "must be > 0, got -1");
  CHECK(ParameterRange::positive().refusal(1.0).empty());
  // Not magnitudes: an initial angle or velocity, a count.
  CHECK(ParameterRange::any().contains(kSubnormal));
  CHECK(ParameterRange::between(-1.0, 1.0).contains(kSubnormal));
}

TEST_CASE("a refusal shows the value as given, every digit") {
  // Six significant digits showed n = 2.0000001 as "got 2", a value the rule accepts.
  CHECK(ParameterRange::count(1.0, 10.0).refusal(2.0000001) == "must be a whole number from 1 to 10, got 2.0000001");
  CHECK(ParameterRange::between(0.0, 0.1).refusal(0.10000000000000002) ==
        "must be in (0, 0.1), got 0.10000000000000002");
  CHECK(ParameterRange::positive().refusal(-1.2345678) == "must be > 0, got -1.2345678");
}

TEST_CASE("every scenario refuses a subnormal mass, length, stiffness or damping by name") {
  // The reliability table's case cli/denormal_mass: constrained-particles --set m1=1e-320 is > 0,
  // yet without this check Newton fails at step 2 with no word of the mass.
  int magnitudes = 0;
  for (const Scenario& s : scenarios())
    for (const ScenarioParameter& p : s.parameters) {
      if (!p.choices.empty() || p.range.whole || p.range.low != 0.0) continue;
      CAPTURE(s.name);
      CAPTURE(p.name);
      ++magnitudes;
      CHECK_THROWS_WITH_AS(resolve_parameters(s, {{p.name, kSubnormal}}),
                           doctest::Contains(("scenario '" + s.name + "': parameter '" + p.name + "' " + kNormalRule).c_str()),
                           std::invalid_argument);
      CHECK_NOTHROW(resolve_parameters(s, {{p.name, std::numeric_limits<double>::min()}}));
    }
  CHECK(magnitudes >= 30);
  RunOptions options;
  options.scenario = "constrained-particles";
  options.overrides = {{"m1", kSubnormal}};
  options.configure().t_end = 0.03;
  CHECK_THROWS_WITH_AS(run(options), doctest::Contains(("parameter 'm1' " + kNormalRule + ", got 1e-320").c_str()),
                       std::invalid_argument);
}

TEST_CASE("a run checks the scenario's parameters before its run settings") {
  // docs/reliability.md: double-well --set a=-1 --t 0.03 is refused for the parameter, the more
  // basic error, not because 0.03 is not a whole number of steps of 0.05.
  RunOptions options;
  options.scenario = "double-well";
  options.overrides = {{"a", -1.0}};
  options.configure().t_end = 0.03;
  const std::string bad_parameter = "scenario 'double-well': parameter 'a' must be > 0, got -1";
  CHECK_THROWS_WITH_AS(run(options), bad_parameter.c_str(), std::invalid_argument);
  CHECK_THROWS_WITH_AS(export_scene(options), bad_parameter.c_str(), std::invalid_argument);
  options.overrides.clear();
  CHECK_THROWS_WITH_AS(run(options), doctest::Contains("the end time is not a whole number of steps"),
                       std::invalid_argument);
}

TEST_CASE("a choice parameter takes its names, and a refusal names them") {
  // Issue 40: `chain3d --set joint=0.5` said "must be a whole number from 0 to 1", though the
  // parameter's values are spherical and revolute.
  const Scenario& chain3d = find_scenario("chain3d");
  CHECK(parse_parameter_value(chain3d, "joint", "spherical") == 0.0);
  CHECK(parse_parameter_value(chain3d, "joint", "revolute") == 1.0);
  CHECK(resolve_parameters(chain3d, {{"joint", 1.0}}).at("joint") == 1.0);
  for (const double value : {0.5, 7.0, -1.0})
    CHECK_THROWS_WITH_AS(resolve_parameters(chain3d, {{"joint", value}}),
                         ("scenario 'chain3d': parameter 'joint' must be one of spherical, revolute, got " +
                          format_exact(value)).c_str(),
                         std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_parameter_value(chain3d, "joint", "hinge"),
                       "--set joint expects one of spherical, revolute, got 'hinge'", std::invalid_argument);
}
