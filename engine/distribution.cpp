/// What processes agree on (distribution.hpp).
#include <noether/engine/distribution.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

namespace noether {

std::vector<Index> counts_of_processes(const Distribution& processes, Index count) {
  std::vector<double> counts(static_cast<std::size_t>(processes.ranks()), 0.0);
  counts[static_cast<std::size_t>(processes.rank())] = static_cast<double>(count);
  processes.sum(counts);
  return {counts.begin(), counts.end()};
}

int first_process_with(const Distribution& processes, bool flag) {
  const std::vector<Index> flags = counts_of_processes(processes, flag ? 1 : 0);
  const auto first = std::ranges::find(flags, Index{1});
  return first == flags.end() ? -1 : static_cast<int>(first - flags.begin());
}

std::string text_of_process(const Distribution& processes, int from, const std::string& text) {
  std::vector<double> characters(kSharedTextLength, 0.0);  // the others add zeros
  if (processes.rank() == from)
    for (std::size_t k = 0; k < std::min(kSharedTextLength, text.size()); ++k)
      characters[k] = static_cast<unsigned char>(text[k]);
  processes.sum(characters);
  std::string shared;
  for (const double c : characters) {
    if (c == 0.0) break;
    shared.push_back(static_cast<char>(static_cast<unsigned char>(c)));
  }
  return shared;
}

KeyOrderNumbers number_in_key_order(const Distribution& processes, std::span<const SortKey> keys,
                                    std::span<const Index> counts) {
  const std::vector<Index> held = counts_of_processes(processes, static_cast<Index>(keys.size()));
  Index before = 0, total = 0;
  for (std::size_t p = 0; p < held.size(); ++p) {
    if (static_cast<int>(p) < processes.rank()) before += held[p];
    total += held[p];
  }
  constexpr std::size_t kValues = 3;  // the key's two values and the count
  std::vector<double> all(static_cast<std::size_t>(total) * kValues, 0.0);  // the others add zeros
  for (std::size_t k = 0; k < keys.size(); ++k) {
    double* item = &all[(static_cast<std::size_t>(before) + k) * kValues];
    item[0] = keys[k][0];
    item[1] = keys[k][1];
    item[2] = static_cast<double>(counts[k]);
  }
  processes.sum(all);
  std::vector<std::size_t> order(static_cast<std::size_t>(total));
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto key = [&](std::size_t i) { return SortKey{all[i * kValues], all[i * kValues + 1]}; };
  std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  KeyOrderNumbers numbers{std::vector<Index>(keys.size()), 0};
  for (const std::size_t i : order) {
    const auto own = static_cast<std::ptrdiff_t>(i) - before;
    if (own >= 0 && own < static_cast<std::ptrdiff_t>(keys.size()))
      numbers.first[static_cast<std::size_t>(own)] = numbers.total;
    numbers.total += static_cast<Index>(all[i * kValues + 2]);
  }
  return numbers;
}

ProcessError first_error(const Distribution& processes, std::exception_ptr error) {
  const int first = first_process_with(processes, error != nullptr);
  if (first < 0) return {};
  std::string words;
  if (processes.rank() == first) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      words = e.what();
    } catch (...) {
      words = "an exception that is no std::exception";
    }
  }
  return {first, text_of_process(processes, first, words)};
}

}  // namespace noether
