// The tests that run over several processes (mpirun -np 2 noether_mpi_tests; tests/CMakeLists.txt):
// doctest's main between the start and the end of MPI, each process running every case, in which
// they call the collective functions alike. Only rank 0 reports, so that the output is one run's.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <noether/distributed/mpi_distribution.hpp>

#include "mpi/mpi_world.hpp"

int main(int argc, char** argv) {
  const auto world = noether::MpiDistribution::world();
  noether::testing::set_world(world);
  doctest::Context context(argc, argv);
  if (world->rank() != 0) context.setOption("out", "/dev/null");
  const int failed = context.run();
  // A case that fails on one process fails the run whichever process the launcher reports.
  const bool any_failed = world->any(failed != 0);
  noether::testing::set_world(nullptr);
  return any_failed ? 1 : 0;
}
