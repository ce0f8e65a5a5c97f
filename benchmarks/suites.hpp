#pragma once
/// Which benchmarks a run registers.
#include <optional>
#include <string_view>

namespace noether::bench {

/// quick: smallest sizes of every family (a smoke run, seconds); default: sizes up to ~5e4 bodies
/// (minutes on 2 cores); full: adds the largest sizes (chains of 1e5 bodies, the planar chain of
/// 1e6, nfourbar 1e4, grid2d 100 x 100; tens of minutes and several GiB).
enum class Suite { quick, standard, full };

/// "quick", "default", "full"; std::nullopt otherwise.
std::optional<Suite> parse_suite(std::string_view name);

void register_suite(Suite suite);

}  // namespace noether::bench
