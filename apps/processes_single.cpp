#include <noether/apps/processes.hpp>

#include <stdexcept>

namespace noether {

struct Processes::Job {};

Processes::Processes() {
  if (launched_by_mpi())
    throw std::runtime_error(
        "an MPI launcher (mpirun) started this noether, which was built without MPI: install the Debian package "
        "libopenmpi-dev and build again (CMake finds MPI and sets NOETHER_MPI), or run noether without mpirun");
}

Processes::~Processes() = default;

std::shared_ptr<const Distribution> Processes::distribution() const { return nullptr; }

int Processes::on_this_machine() const { return 1; }

bool Processes::reports() const { return true; }

void Processes::end_all(int) const {}

}  // namespace noether
