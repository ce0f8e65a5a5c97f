/// The steppers users choose by name (steppers/stepper_registry.hpp): each listed under the name
/// it gives itself (its scheme's, written once in the scheme), a composition under its base's
/// name and its order, with the traits its scheme declares. Every check reads the registry, so a
/// new stepper is checked without being named here.
#include <algorithm>
#include <regex>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/steppers/stepper_registry.hpp>

using namespace noether;

namespace {

/// The index of the stepper named `name` in the registry, -1 when there is none.
int position_of(const std::string& name) {
  const auto all = steppers();
  const auto it = std::find_if(all.begin(), all.end(), [&](const StepperInfo& s) { return s.name == name; });
  return it == all.end() ? -1 : static_cast<int>(it - all.begin());
}

}  // namespace

TEST_CASE("every stepper is listed once, under the name it gives itself, a composition after its base") {
  const Mechanism mechanism = make_chain2d(2);
  std::set<std::string> names;
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    CHECK(info.make(mechanism.system(), StepperOptions{})->name() == info.name);
    CHECK(names.insert(info.name).second);
    // "<base><order>" with a listed base: a composition, listed after the base, of the order it is named by.
    const std::size_t digits = info.name.find_last_not_of("0123456789") + 1;
    const int base = position_of(info.name.substr(0, digits));
    if (digits < info.name.size() && base >= 0) {
      CHECK(base < position_of(info.name));
      CHECK(info.order == std::stoi(info.name.substr(digits)));
    }
  }
}

TEST_CASE("a stepper's description agrees with the traits of its entry") {
  const std::regex order_phrase("order ([0-9]+)");
  for (const StepperInfo& info : steppers()) {
    CAPTURE(info.name);
    CAPTURE(info.description);
    CHECK(info.order >= 1);
    std::smatch match;
    if (std::regex_search(info.description, match, order_phrase)) CHECK(std::stoi(match[1]) == info.order);
    if (info.description.find("energy exact") != std::string::npos) CHECK(info.conserves_energy);
    if (info.description.find("adaptive steps") != std::string::npos) CHECK(info.adaptive_step_size);
  }
}
