#include <noether/engine/ghost_exchange.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace noether {
namespace {

/// Why a process's local unknowns cannot make an exchange; empty when they can.
std::string fault_of(std::span<const Index> global, std::span<const int> owner, int ranks) {
  if (global.size() != owner.size())
    return std::to_string(global.size()) + " global numbers but " + std::to_string(owner.size()) + " owners";
  for (std::size_t i = 0; i < owner.size(); ++i)
    if (owner[i] < 0 || owner[i] >= ranks)
      return "local unknown " + std::to_string(i) + " has owner " + std::to_string(owner[i]) + " of " +
             std::to_string(ranks) + " processes";
  return {};
}

/// Throws when `faults`, summed over the processes, counts any: on every process alike, so that
/// none goes on to a collective call the others never make, in the words of the lowest process
/// at fault (collective when faults > 0, which every process sees alike).
void agree_on_fault(const Distribution& processes, const std::string& fault, double faults) {
  if (faults == 0.0) return;
  const int from = first_process_with(processes, !fault.empty());
  throw std::invalid_argument("ghost exchange: process " + std::to_string(from) + ": " +
                              text_of_process(processes, from, fault));
}

}  // namespace

GhostExchange::GhostExchange(const Distribution& processes, std::span<const Index> global, std::span<const int> owner)
    : processes_(processes) {
  const int ranks = processes.ranks(), rank = processes.rank();
  const auto p = static_cast<std::size_t>(ranks);
  const std::string fault = fault_of(global, owner, ranks);
  // The ghosts here by owner, in increasing global number.
  std::map<int, std::vector<std::pair<Index, Index>>> by_owner;  // owner -> (global, local)
  if (fault.empty())
    for (std::size_t i = 0; i < owner.size(); ++i)
      if (owner[i] != rank) by_owner[owner[i]].emplace_back(global[i], static_cast<Index>(i));
  // counts[q * p + o]: how many ghosts process q holds of process o's unknowns; the last entry
  // counts the processes at fault.
  std::vector<double> counts(p * p + 1, 0.0);
  for (auto& [o, entries] : by_owner) {
    std::ranges::sort(entries);
    counts[static_cast<std::size_t>(rank) * p + static_cast<std::size_t>(o)] = static_cast<double>(entries.size());
  }
  counts.back() = fault.empty() ? 0.0 : 1.0;
  processes.sum(counts);
  agree_on_fault(processes, fault, counts.back());

  std::vector<std::vector<double>> asked(by_owner.size());  // the global numbers sent to each owner
  std::vector<Distribution::Outgoing> sends;
  for (auto& [o, entries] : by_owner) {
    Link& link = ghosts_.emplace_back(Link{o, {}, {}, {}});
    std::vector<double>& numbers = asked[ghosts_.size() - 1];
    for (const auto& [g, l] : entries) {
      link.local.push_back(l);
      numbers.push_back(static_cast<double>(g));
    }
    link.buffer.resize(link.local.size());
    sends.push_back({o, numbers});
  }
  std::vector<Distribution::Incoming> receives;
  shared_.reserve(p);  // the receives hold spans of the links' buffers
  for (int q = 0; q < ranks; ++q)
    if (const double n = counts[static_cast<std::size_t>(q) * p + static_cast<std::size_t>(rank)]; n > 0.0) {
      Link& link = shared_.emplace_back(Link{q, {}, std::vector<double>(static_cast<std::size_t>(n)), {}});
      receives.push_back({q, link.buffer});
    }
  processes.exchange(sends, receives);
  resolve_shared(global, owner);
}

void GhostExchange::resolve_shared(std::span<const Index> global, std::span<const int> owner) {
  const int rank = processes_.rank();
  std::vector<std::pair<Index, Index>> owned;  // (global, local), sorted
  for (std::size_t i = 0; i < owner.size(); ++i)
    if (owner[i] == rank) owned.emplace_back(global[i], static_cast<Index>(i));
  std::ranges::sort(owned);
  std::string fault;
  for (Link& link : shared_)
    for (const double number : link.buffer) {
      const auto g = static_cast<Index>(number);
      const auto at = std::ranges::lower_bound(owned, std::pair{g, Index{0}});
      if (at == owned.end() || at->first != g) {
        fault = "process " + std::to_string(link.process) + " holds a ghost of unknown " + std::to_string(g) +
                ", which process " + std::to_string(rank) + " does not own";
        break;
      }
      link.local.push_back(at->second);
    }
  const std::vector<Index> faults = counts_of_processes(processes_, fault.empty() ? 0 : 1);
  agree_on_fault(processes_, fault, static_cast<double>(std::accumulate(faults.begin(), faults.end(), Index{0})));
  for (const Link& link : shared_) slots_.insert(slots_.end(), link.local.begin(), link.local.end());
  std::ranges::sort(slots_);
  slots_.erase(std::unique(slots_.begin(), slots_.end()), slots_.end());
  for (Link& link : shared_)
    for (const Index l : link.local) link.slot.push_back(static_cast<Index>(std::ranges::lower_bound(slots_, l) - slots_.begin()));
  totals_.resize(slots_.size());
  started_.resize(slots_.size());
}

namespace {

/// Each link's buffer := the entries of xs at its local indices, vector after vector.
template <class Links>
void pack(const Links& links, std::span<VectorRef> xs) {
  for (const auto& link : links) {
    link.buffer.resize(xs.size() * link.local.size());
    for (std::size_t v = 0, at = 0; v < xs.size(); ++v)
      for (const Index i : link.local) link.buffer[at++] = xs[v](i);
  }
}

/// The entries of xs at each link's local indices := its buffer, vector after vector.
template <class Links>
void unpack(const Links& links, std::span<VectorRef> xs) {
  for (const auto& link : links)
    for (std::size_t v = 0, at = 0; v < xs.size(); ++v)
      for (const Index i : link.local) xs[v](i) = link.buffer[at++];
}

}  // namespace

void GhostExchange::swap_buffers(const std::vector<Link>& out_links, const std::vector<Link>& in_links,
                                 std::size_t width) const {
  for (const Link& link : in_links) link.buffer.resize(width * link.local.size());
  std::vector<Distribution::Outgoing> sends;
  std::vector<Distribution::Incoming> receives;
  for (const Link& link : out_links) sends.push_back({link.process, link.buffer});
  for (const Link& link : in_links) receives.push_back({link.process, link.buffer});
  processes_.exchange(sends, receives);
}

void GhostExchange::update_ghosts(VectorRef x) const {
  std::array<VectorRef, 1> one{x};
  update_ghosts(one);
}

void GhostExchange::sum_shared(VectorRef x) const {
  std::array<VectorRef, 1> one{x};
  sum_shared(one);
}

void GhostExchange::update_ghosts(std::span<VectorRef> xs) const {
  pack(shared_, xs);
  swap_buffers(shared_, ghosts_, xs.size());
  unpack(ghosts_, xs);
}

void GhostExchange::sum_shared(std::span<VectorRef> xs) const {
  pack(ghosts_, xs);
  swap_buffers(ghosts_, shared_, xs.size());
  for (std::size_t v = 0; v < xs.size(); ++v) add_in_rank_order(xs[v], v);
  update_ghosts(xs);
}

/// Each shared entry of x := its total, its contributions added in the order of the ranks: the
/// other processes' (shared_ is in increasing process order, their values of x the v-th run of
/// each link's buffer) with this process's own at its place.
void GhostExchange::add_in_rank_order(VectorRef x, std::size_t v) const {
  std::ranges::fill(started_, false);
  const auto add = [&](Index slot, double value) {
    const auto s = static_cast<std::size_t>(slot);
    totals_[s] = started_[s] ? totals_[s] + value : value;
    started_[s] = true;
  };
  const auto add_own = [&] {
    for (std::size_t s = 0; s < slots_.size(); ++s) add(static_cast<Index>(s), x(slots_[s]));
  };
  bool own_added = false;
  for (const Link& link : shared_) {
    if (!own_added && link.process > processes_.rank()) {
      add_own();
      own_added = true;
    }
    const std::size_t first = v * link.local.size();
    for (std::size_t k = 0; k < link.local.size(); ++k) add(link.slot[k], link.buffer[first + k]);
  }
  if (!own_added) add_own();
  for (std::size_t s = 0; s < slots_.size(); ++s) x(slots_[s]) = totals_[s];
}

Index GhostExchange::ghost_count() const {
  Index n = 0;
  for (const Link& link : ghosts_) n += static_cast<Index>(link.local.size());
  return n;
}

Index GhostExchange::shared_count() const { return static_cast<Index>(slots_.size()); }

std::vector<bool> GhostExchange::held_elsewhere(Index size) const {
  std::vector<bool> held(static_cast<std::size_t>(size), false);
  for (const Link& link : ghosts_)
    for (const Index i : link.local) held[static_cast<std::size_t>(i)] = true;
  for (const Index i : slots_) held[static_cast<std::size_t>(i)] = true;
  return held;
}

}  // namespace noether
