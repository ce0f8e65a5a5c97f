#pragma once
/// The processes the `noether` program runs as: one, or every process of an MPI job when mpirun
/// (or another MPI launcher) started it (docs/distributed.md). The build decides the
/// implementation: processes_mpi.cpp with MPI (NOETHER_MPI), processes_single.cpp without.
#include <memory>

#include <noether/engine/distribution.hpp>

namespace noether {

class Processes {
 public:
  /// Joins the MPI job when an MPI launcher started this process (its environment says so:
  /// OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK); one process otherwise. Throws
  /// std::runtime_error when a launcher started a program built without MPI, or MPI cannot start.
  Processes();
  ~Processes();
  Processes(const Processes&) = delete;
  Processes& operator=(const Processes&) = delete;

  /// The job's processes for RunOptions::distribution; nullptr for one process.
  std::shared_ptr<const Distribution> distribution() const;
  /// How many of the job's processes run on this machine and share its memory (1 for one
  /// process). Collective.
  int on_this_machine() const;
  /// Whether this process prints and writes what the run reports (rank 0, or the only process).
  bool reports() const;
  /// Ends every process of the job with exit_code (MPI_Abort): for an ending the other processes
  /// cannot have reached at the same point (a full disk on rank 0, memory running out on one),
  /// where they would wait for this one forever. Returns at once for one process.
  void end_all(int exit_code) const;

 private:
  struct Job;
  std::unique_ptr<Job> job_;  ///< nullptr for one process
};

/// Whether the environment says an MPI launcher started this process.
bool launched_by_mpi();

}  // namespace noether
