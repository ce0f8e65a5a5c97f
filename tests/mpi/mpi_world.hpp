#pragma once
/// The processes of the MPI tests' job (tests/mpi/mpi_main.cpp sets it).
#include <memory>

#include <noether/distributed/mpi_distribution.hpp>

namespace noether::testing {

inline std::shared_ptr<MpiDistribution>& world_slot() {
  static std::shared_ptr<MpiDistribution> world;
  return world;
}
inline void set_world(std::shared_ptr<MpiDistribution> world) { world_slot() = std::move(world); }
inline const MpiDistribution& world() { return *world_slot(); }

}  // namespace noether::testing
