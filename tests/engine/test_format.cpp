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
