#pragma once
/// Whether a generated mechanism of a given size fits in this machine's memory, decided before
/// building it: a mechanism too large for the memory would otherwise be killed by the kernel
/// part-way through, with no message.
#include <cstdint>
#include <string>

namespace noether {

/// MemAvailable from /proc/meminfo: what can be allocated without swapping (0 when unknown).
std::int64_t available_memory_bytes();

/// Peak bytes per bar of building a generated mechanism and a livens-em stepper and stepping it:
/// the memory benchmarks' peak with UMFPACK, which exceeds KLU's, plus about 15 % (the measured
/// peaks: docs/performance.md, 'Figures moved from code comments'). The grids, whose fill grows
/// with k, are not measured and get a generous 30 KB.
constexpr double kPlanarBarPeakBytes = 14e3;
constexpr double k3dBarPeakBytes = 26e3;
constexpr double kLatticeBarPeakBytes = 30e3;

/// Throws std::invalid_argument, naming `what` (e.g. "scenario 'chain2d' with n = 100000000"),
/// the estimated need and the available memory, when `bars` bars of `bytes_per_bar` need more than
/// 80 % of the available memory. Does nothing when the available memory is unknown.
void require_memory_for_bars(double bars, double bytes_per_bar, const std::string& what);

}  // namespace noether
