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

  /// A message of exchange(): the other process and the values sent to it or received from it.
  struct Outgoing {
    int process;
    std::span<const double> values;
  };
  struct Incoming {
    int process;
    std::span<double> values;
  };
  /// Sends each of `sends` to its process and fills each of `receives` with what its process sends
  /// this one, as many values as it holds (the two sides agree on the sizes beforehand, and a
  /// process sends another at most one message per exchange). Collective over the processes
  /// named: each calls exchange with the messages it sends and expects. Returns once every
  /// message of this process has arrived and every send buffer may be reused.
  virtual void exchange(std::span<const Outgoing> sends, std::span<const Incoming> receives) const = 0;
};

/// The mark of an unknown that lies in no single process's matrix part (divide_unknowns,
/// engine/partition.hpp): the interface between the parts.
inline constexpr int kSharedUnknown = -1;

}  // namespace noether
