/// The steppers users choose by name (steppers/stepper_registry.hpp): each listed under the name
/// it gives itself (its scheme's, written once in the scheme), a composition under its base's
/// name and its order.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

TEST_CASE("every stepper is listed under the name it gives itself, a composition under its base's and its order") {
  const Mechanism mechanism = make_chain2d(2);
  std::vector<std::string> names;
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    CHECK(info.make(mechanism.system(), StepperOptions{})->name() == info.name);
    names.push_back(info.name);
  }
  // The names and order `noether list` prints (README, docs/cli.md).
  CHECK(names == std::vector<std::string>{"livens-em", "ggl-vi", "em-ggl", "evi", "midpoint-vi", "sem-vi",
                                          "lobatto4", "livens-em4", "livens-em6", "em-ggl4", "em-ggl6"});
}
