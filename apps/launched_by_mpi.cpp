#include <noether/apps/processes.hpp>

#include <cstdlib>

namespace noether {

bool launched_by_mpi() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(variable) != nullptr) return true;
  return false;
}

}  // namespace noether
