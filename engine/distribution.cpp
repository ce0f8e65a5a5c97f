/// What processes agree on (distribution.hpp).
#include <noether/engine/distribution.hpp>

#include <algorithm>
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
