#include <noether/apps/processes.hpp>

#include <noether/distributed/mpi_distribution.hpp>

namespace noether {

struct Processes::Job {
  std::shared_ptr<MpiDistribution> world = MpiDistribution::world();
};

Processes::Processes() : job_(launched_by_mpi() ? std::make_unique<Job>() : nullptr) {}

Processes::~Processes() = default;

std::shared_ptr<const Distribution> Processes::distribution() const { return job_ ? job_->world : nullptr; }

int Processes::on_this_machine() const { return job_ ? job_->world->ranks_on_this_machine() : 1; }

bool Processes::reports() const { return !job_ || job_->world->rank() == 0; }

void Processes::end_all(int exit_code) const {
  if (job_ && job_->world->ranks() > 1) job_->world->abort(exit_code);
}

}  // namespace noether
