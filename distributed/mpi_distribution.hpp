#pragma once
/// The processes of an MPI job as a Distribution (engine/distribution.hpp): MPI_COMM_WORLD, with
/// sums added in the order of the ranks. The MPI types stay in the source file.
#include <memory>
#include <span>
#include <vector>

#include <noether/engine/distribution.hpp>

namespace noether {

class MpiDistribution final : public Distribution {
 public:
  /// The processes of MPI_COMM_WORLD. Initializes MPI (thread level MPI_THREAD_FUNNELED: only the
  /// thread that made it calls MPI; TBB's workers never do) unless it is initialized already, and
  /// then finalizes it at exit, after the libraries started on it have ended. Throws
  /// std::runtime_error when MPI cannot start.
  static std::shared_ptr<MpiDistribution> world();
  MpiDistribution(const MpiDistribution&) = delete;
  MpiDistribution& operator=(const MpiDistribution&) = delete;

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  /// Passes the partial sums from rank to rank, then broadcasts the last rank's total: every
  /// process gets the same bits, whatever MPI's choice of algorithms. One message per rank in
  /// turn: its time grows with the number of processes (fine for tens of them).
  void sum(std::span<double> values) const override;
  /// One MPI_Allreduce with an operation of our own (MPI_MAX leaves NaN's outcome to the
  /// implementation).
  void max(std::span<double> values) const override;
  /// Non-blocking receives and sends (MPI_Irecv, MPI_Isend), then one MPI_Waitall.
  void exchange(std::span<const Outgoing> sends, std::span<const Incoming> receives) const override;
  /// Whether `flag` is true on any process (collective), so that every process takes a decision
  /// one of them has a reason for (a signal, an error) at the same point.
  bool any(bool flag) const;
  /// How many of the job's processes run on this one's machine (MPI_Comm_split_type's shared-memory
  /// group): they share its memory. Collective.
  int ranks_on_this_machine() const;
  /// Ends every process of the job with `exit_code` (MPI_Abort), for an error that the others
  /// cannot learn of at a collective call.
  [[noreturn]] void abort(int exit_code) const;

 private:
  MpiDistribution(int rank, int ranks);
  int rank_, ranks_;
  /// sum()'s partial sum from the rank below, kept from call to call: a whole residual's sums
  /// (tens of MB for 10^5 bodies) allocated per call were fresh pages to fault in every time.
  mutable std::vector<double> lower_;
};

}  // namespace noether
