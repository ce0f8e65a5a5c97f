#pragma once
/// The processes that assemble one Newton system together (an MPI job: docs/distributed.md).
///
/// Every process holds the whole system and the whole state; each evaluates only the terms it
/// owns (engine/partition.hpp says which) and assembles their residual rows and matrix entries. The residual, its scales and floors
/// are then summed over the processes, so that every process holds the same residual, to the bit,
/// and takes the same Newton decisions; the matrix stays in parts, one per process, for a linear
/// solver that sums them (a distributed one). The engine sees only this interface: the MPI
/// implementation lives in distributed/.
#include <span>

#include <noether/engine/types.hpp>

namespace noether {

class Distribution {
 public:
  virtual ~Distribution() = default;
  /// This process's number, 0 .. ranks() - 1.
  virtual int rank() const = 0;
  /// The number of processes.
  virtual int ranks() const = 0;
  /// values[i] = the sum over the processes of their values[i], added in the order of the ranks
  /// (((v_0 + v_1) + v_2) + ...), so that the result depends on the inputs and the number of
  /// processes alone; on return every process holds the same bits. Collective: every process
  /// calls it with the same size.
  virtual void sum(std::span<double> values) const = 0;
};

/// The mark of an unknown that lies in no single process's matrix part (divide_unknowns,
/// engine/partition.hpp): the interface between the parts.
inline constexpr int kSharedUnknown = -1;

}  // namespace noether
