/// The CLI's whole-number options (--threads, --every, --max-steps, --newton-max-iterations,
/// --refine-depth): a whole number in exponent form is one (the reliability table found
/// "--max-steps expects a whole number >= 1, got '1e3'"), and a value beyond int names the range
/// instead of claiming it is not >= 1.
#include <stdexcept>

#include <doctest/doctest.h>

#include <noether/apps/cli_arguments.hpp>

using namespace noether;

TEST_CASE("whole-number options take digits or exponent form and name their range") {
  CHECK(parse_positive_count("--max-steps", "1e3") == 1000);
  CHECK(parse_positive_count("--threads", "2") == 2);
  CHECK(parse_positive_count("--every", "2147483647") == 2147483647);
  CHECK(parse_count_in("--refine-depth", "0", 0, 30) == 0);
  CHECK(parse_count_in("--refine-depth", "3e1", 0, 30) == 30);
  CHECK_THROWS_WITH_AS(parse_positive_count("--threads", "99999999999"),
                       "--threads expects a whole number from 1 to 2147483647, got '99999999999'", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_positive_count("--max-steps", "1e999"),
                       "--max-steps expects a whole number from 1 to 2147483647, got '1e999'", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_positive_count("--every", "inf"), "--every expects a whole number from 1 to 2147483647, got 'inf'",
                       std::invalid_argument);
  for (const char* text : {"0", "-1", "1.5", "two", "", "nan", "1e-3", "3 "}) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(parse_positive_count("--every", text), ("--every expects a whole number >= 1, got '" + std::string(text) + "'").c_str(),
                         std::invalid_argument);
  }
  CHECK_THROWS_WITH_AS(parse_count_in("--refine-depth", "31", 0, 30), "--refine-depth expects a whole number from 0 to 30, got '31'",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_count_in("--refine-depth", "0.5", 0, 30), "--refine-depth expects a whole number from 0 to 30, got '0.5'",
                       std::invalid_argument);
}
