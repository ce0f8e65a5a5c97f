#pragma once
/// Bringing a whole vector, held in parts by the processes of a run, to rank 0 (docs/distributed.md,
/// "Stage 4"): the time series rows, final_state.json and the labels of their columns are written
/// by rank 0 from the whole model's order, while each process holds only its part's entries.
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <noether/engine/distribution.hpp>
#include <noether/engine/types.hpp>

namespace noether {

/// Entries of a whole vector of `whole_size`, each held by exactly one process under its number in
/// the whole (held_numbers); gather() puts them together at rank 0.
class PartGather {
 public:
  /// Collective: rank 0 checks every process's numbers (one message from each). Throws
  /// std::invalid_argument on rank 0 when a number is outside 0 .. whole_size - 1 or held twice, or
  /// the processes' entries do not fill the whole (the rule that one process holds each entry).
  PartGather(const Distribution& processes, std::vector<Index> held_numbers, Index whole_size);

  /// Collective: at rank 0 the whole vector, entry held_numbers[k] of process p being p's
  /// held[k]; an empty vector on the other processes. held has held_numbers' size.
  Vector gather(std::span<const double> held) const;
  /// The same for texts (labels): at rank 0 the whole list in the whole's order. A text holds no
  /// '\0' (the separator).
  std::vector<std::string> gather(std::span<const std::string> held) const;

  /// What for_each hands rank 0 for each entry: its text (label) and value.
  using Visit = std::function<void(const std::string& text, double value)>;
  /// Appends the text of held entry k (held_numbers[k]), which holds no '\0', to `texts`; its value.
  using HeldText = std::function<void(std::size_t k, std::string& texts)>;
  using HeldValue = std::function<double(std::size_t k)>;
  /// Collective: at rank 0 visit(text(k), value(k)) of every process's held entries k in the
  /// whole's order, brought there kChunk entries of the whole at a time and each text made as its
  /// chunk is sent, so that no process holds a list of the whole's size, nor of its part's texts;
  /// the other processes visit nothing. An empty `text` (on every process) sends values alone,
  /// each visited with an empty text. An exception thrown by visit is rethrown once every chunk
  /// has been brought (the others do not wait for rank 0 in vain).
  void for_each(const HeldText& text, const HeldValue& value, const Visit& visit) const;

  /// The entries of the whole for_each brings to rank 0 at a time.
  static constexpr Index kChunk = Index{1} << 16;

  /// The number of entries this process holds.
  Index held() const { return static_cast<Index>(held_numbers_.size()); }
  /// The whole's number of entries.
  Index whole_size() const { return whole_size_; }

 private:
  /// for_each's chunk [begin, end) at rank 0 from each process's entries in it (process p's
  /// message in received[p]; own_message rank 0's): texts and values in the whole's order.
  void visit_chunk(Index begin, Index end, const std::vector<std::vector<double>>& received,
                   std::span<const double> own_message, bool with_texts, const Visit& visit) const;

  /// The message of this process's entries: their count, their numbers, then `payload` (rank 0
  /// puts each entry in its place by its number: it keeps no numbering of the whole).
  std::vector<double> numbered(std::span<const double> payload) const;
  /// Collective: each process's values at rank 0 (process p's in received[p]; rank 0's own are
  /// not copied: received[0] stays empty), one message from every process but rank 0.
  std::vector<std::vector<double>> to_first(std::span<const double> values) const;

  const Distribution& processes_;
  std::vector<Index> held_numbers_;
  Index whole_size_;
};

}  // namespace noether
