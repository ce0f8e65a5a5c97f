#include <limits>

#include <doctest/doctest.h>

#include <noether/engine/format.hpp>

using namespace noether;

TEST_CASE("format_number writes numbers for messages as typed, small ones included") {
  CHECK(format_number(0.0) == "0");
  CHECK(format_number(-1.0) == "-1");
  CHECK(format_number(2.5) == "2.5");
  CHECK(format_number(1e-9) == "1e-09");  // std::to_string: "0.000000"
  CHECK(format_number(-3e-7) == "-3e-07");
  CHECK(format_number(1e300) == "1e+300");
  CHECK(format_number(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(format_number(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("a subnormal number is refused in one wording, whatever refuses it") {
  const double smallest = std::numeric_limits<double>::min();
  CHECK(is_subnormal(1e-320));
  CHECK(is_subnormal(-std::numeric_limits<double>::denorm_min()));
  CHECK_FALSE(is_subnormal(0.0));
  CHECK_FALSE(is_subnormal(-0.0));
  CHECK_FALSE(is_subnormal(smallest));
  CHECK_FALSE(is_subnormal(std::numeric_limits<double>::quiet_NaN()));
  CHECK(subnormal_refusal(1e-320, false) == "must be a normal number, at least 2.2250738585072014e-308, got 1e-320 "
                                            "(a subnormal value keeps too few digits for the equations)");
  CHECK(subnormal_refusal(-1e-320, true) == "must be a normal number, at least 2.2250738585072014e-308 in magnitude "
                                            "(or 0), got -1e-320 (a subnormal value keeps too few digits for the "
                                            "equations)");
}
