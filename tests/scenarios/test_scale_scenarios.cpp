/// The scaling scenarios refuse, before building anything, a size the machine's memory cannot hold.
#include <doctest/doctest.h>

#include <noether/apps/mechanisms/generators.hpp>
#include <noether/apps/mechanisms/memory_budget.hpp>
#include <noether/apps/scenarios/scenario.hpp>

using namespace noether;

TEST_CASE("bar_lattice_size counts the bars make_bar_lattice builds") {
  for (const auto& [columns, rows] : {std::pair<Index, Index>{1, 1}, {4, 1}, {3, 3}, {5, 2}}) {
    const Index shown_columns = columns, shown_rows = rows;  // CAPTURE's lambda cannot capture a structured binding in clang 14
    CAPTURE(shown_columns);
    CAPTURE(shown_rows);
    CHECK(bar_lattice_size(columns, rows) == static_cast<double>(make_bar_lattice(columns, rows).bodies().size()));
  }
}

TEST_CASE("a scaling scenario too large for the memory is refused before it is built, naming its size") {
  REQUIRE(available_memory_bytes() > 0);  // Linux: /proc/meminfo
  // 10^8 bars need over a terabyte at the measured peak per bar, more than any machine that runs
  // the tests has; building them would be cut short by the kernel with no message.
  for (const std::string name : {"chain2d", "chain3d", "nfourbar"}) {
    CAPTURE(name);
    const Scenario& scenario = find_scenario(name);
    CHECK_THROWS_WITH_AS(scenario.build(resolve_parameters(scenario, {{"n", 1e8}})),
                         doctest::Contains(("scenario '" + name + "' with n = 100000000 needs about").c_str()),
                         std::invalid_argument);
  }
  const Scenario& grid = find_scenario("grid2d");
  CHECK_THROWS_WITH_AS(grid.build(resolve_parameters(grid, {{"k", 1e5}})),
                       doctest::Contains("GB are available: choose a smaller size"), std::invalid_argument);
  CHECK_NOTHROW(grid.build(resolve_parameters(grid, {{"k", 3}})));
}

TEST_CASE("a scaling scenario's size must be a whole number from 1 to 10^8, and the message says which value it got") {
  for (const std::string name : {"chain2d", "chain3d", "nfourbar"}) {
    CAPTURE(name);
    const Scenario& scenario = find_scenario(name);
    for (const auto& [value, shown] : {std::pair<double, std::string>{0.0, "got 0"}, {-1.0, "got -1"},
                                       {2.5, "got 2.5"}, {2e8, "got 2e+08"}}) {
      const std::string& shown_value = shown;  // CAPTURE's lambda cannot capture a structured binding in clang 14
      CAPTURE(shown_value);
      const std::string expected = "parameter 'n' must be a whole number from 1 to 100000000, " + shown;
      CHECK_THROWS_WITH_AS(scenario.build(resolve_parameters(scenario, {{"n", value}})),
                           doctest::Contains(expected.c_str()), std::invalid_argument);
    }
  }
}
