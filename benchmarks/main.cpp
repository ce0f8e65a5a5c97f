/// noether_benchmarks: the step-cost suite (Google Benchmark; see docs/performance.md).
///
///   noether_benchmarks [--suite=quick|default|full] [Google Benchmark flags, e.g.
///                      --benchmark_filter=REGEX --benchmark_out=FILE --benchmark_out_format=json]
///
/// --suite chooses which sizes are registered (default: "default", a few minutes on 2 cores);
/// --benchmark_filter then selects among them by name.
#include <cstring>
#include <iostream>
#include <string>

#include <benchmark/benchmark.h>

#include "suites.hpp"

namespace {

/// Removes --suite=NAME from argv (Google Benchmark rejects flags it does not know).
std::string take_suite_argument(int& argc, char** argv) {
  std::string suite = "default";
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    constexpr const char* prefix = "--suite=";
    if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) suite = argv[i] + std::strlen(prefix);
    else argv[kept++] = argv[i];
  }
  argc = kept;
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string suite_name = take_suite_argument(argc, argv);
  const auto suite = noether::bench::parse_suite(suite_name);
  if (!suite) {
    std::cerr << "noether_benchmarks: unknown suite '" << suite_name << "'; accepted: quick, default, full\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  noether::bench::register_suite(*suite);
  benchmark::AddCustomContext("noether_suite", suite_name);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
