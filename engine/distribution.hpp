#pragma once
/// The processes that assemble one Newton system together (an MPI job: docs/distributed.md).
///
/// Either every process holds the whole system and the whole state (the replicated model), and
/// each evaluates only the terms it owns (engine/partition.hpp says which); the residual, its
/// scales and floors are then summed over the processes, so that every process holds the same
/// residual, to the bit. Or each holds its part of the system (engine/system_part.hpp), and the
/// rows that parts share are summed between their holders (engine/ghost_exchange.hpp). Newton's
/// decisions read maxima over the processes, the same on every one; the matrix stays in parts, one
/// per process, for a linear solver that sums them (a distributed one). The engine sees only this
/// interface: the MPI implementation lives in distributed/.
#include <array>
#include <cstddef>
#include <exception>
#include <span>
#include <string>
#include <vector>

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
  /// values[i] = the largest of the processes' values[i], and NaN when any process's is NaN (so
  /// that a non-finite entry on one process is seen by all). A maximum does not depend on the
  /// order of its inputs: every process holds the same bits. Collective: every process calls it
  /// with the same size.
  virtual void max(std::span<double> values) const = 0;

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

/// Each process's `count`, on every process (an all-gather: one Distribution::sum of one value per
/// process; counts up to 2^53 are exact).
std::vector<Index> counts_of_processes(const Distribution& processes, Index count);

/// The lowest process on which `flag` is true, or -1 where it is on none; every process learns
/// it (collective: one Distribution::sum of one value per process).
int first_process_with(const Distribution& processes, bool flag);

/// Process `from`'s `text` (the others' is not read), on every process: the words one process
/// has for an outcome that all share, so that each reports them alike (collective: one
/// Distribution::sum of a character per value). At most kSharedTextLength characters are kept.
std::string text_of_process(const Distribution& processes, int from, const std::string& text);
inline constexpr std::size_t kSharedTextLength = 4096;

/// Numbers items held by the processes in the order of their keys over all processes (equal keys
/// in the order of the processes, then of the items held), item k of this process taking
/// counts[k] consecutive numbers from 0 up: `first`, the first number of each of this process's
/// items, and `total`, the numbers taken by all. keys and counts have one entry per item.
/// Collective (one Distribution::sum of three values per item of all processes); keys up to 2^53
/// are exact.
using SortKey = std::array<double, 2>;
struct KeyOrderNumbers {
  std::vector<Index> first;
  Index total = 0;
};
KeyOrderNumbers number_in_key_order(const Distribution& processes, std::span<const SortKey> keys,
                                    std::span<const Index> counts);

/// The lowest process whose `error` is set (-1 when none is) and what its exception says
/// (text_of_process), on every process: what an error of one process's part makes every process
/// report alike. Collective.
struct ProcessError {
  int process = -1;
  std::string words;
};
ProcessError first_error(const Distribution& processes, std::exception_ptr error);

/// The mark of an unknown that lies in no single process's matrix part (divide_unknowns,
/// engine/partition.hpp): the interface between the parts.
inline constexpr int kSharedUnknown = -1;

/// Where a process's unknowns lie among the processes' matrix parts, for a linear solver that sums
/// the parts (make_linear_solver): owners[i] is this process (its interior), kSharedUnknown (the
/// interface) or another process (divide_unknowns, engine/partition.hpp). global_numbers is empty
/// when every process holds whole vectors (the replicated model); over parts (each process holds
/// its part's unknowns alone, docs/distributed.md), each unknown's number in the whole system.
struct UnknownPlacement {
  std::span<const int> owners;
  std::span<const Index> global_numbers;
};

}  // namespace noether
