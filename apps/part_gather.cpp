#include <noether/apps/part_gather.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace noether {
namespace {

/// Bytes of text carried by one double: 6 bytes, a number below 2^48, exact in a double's 53 bits.
constexpr std::size_t kBytesPerValue = 6;

/// Ends the text appended to `bytes` from `start` on with a '\0'; throws std::invalid_argument when
/// the text holds a '\0' (the separator).
void end_text(std::string& bytes, std::size_t start) {
  if (bytes.find('\0', start) != std::string::npos) throw std::invalid_argument("PartGather: a text holds a '\\0'");
  bytes += '\0';
}

/// `bytes` as values, kBytesPerValue bytes to a value (the last padded with zeros), a value's first
/// byte lowest: a whole number below 2^48, which a double holds exactly.
std::vector<double> pack_bytes(std::string_view bytes) {
  std::vector<double> values((bytes.size() + kBytesPerValue - 1) / kBytesPerValue);
  for (std::size_t v = 0; v < values.size(); ++v) {
    std::uint64_t value = 0;
    for (std::size_t k = std::min(kBytesPerValue, bytes.size() - v * kBytesPerValue); k-- > 0;)
      value = value << 8 | static_cast<unsigned char>(bytes[v * kBytesPerValue + k]);
    values[v] = static_cast<double>(value);
  }
  return values;
}

/// pack_bytes's bytes back (with the padding).
std::string unpack_bytes(std::span<const double> values) {
  std::string bytes(values.size() * kBytesPerValue, '\0');
  for (std::size_t v = 0; v < values.size(); ++v) {
    auto rest = static_cast<std::uint64_t>(values[v]);
    for (std::size_t k = 0; k < kBytesPerValue; ++k, rest >>= 8) bytes[v * kBytesPerValue + k] = static_cast<char>(rest & 0xff);
  }
  return bytes;
}

/// The first `count` texts of unpack_bytes's bytes, each ended by '\0', as views into them.
std::vector<std::string_view> split_texts(std::string_view bytes, std::size_t count) {
  std::vector<std::string_view> texts;
  texts.reserve(count);
  for (std::size_t start = 0; texts.size() < count;) {
    const std::size_t end = bytes.find('\0', start);
    if (end == std::string_view::npos) throw std::invalid_argument("PartGather: fewer texts received than the entries held");
    texts.push_back(bytes.substr(start, end - start));
    start = end + 1;
  }
  return texts;
}

}  // namespace

PartGather::PartGather(const Distribution& processes, std::vector<Index> held_numbers, Index whole_size)
    : processes_(processes), held_numbers_(std::move(held_numbers)), whole_size_(whole_size) {
  const std::vector<double> own(held_numbers_.begin(), held_numbers_.end());
  std::vector<std::vector<double>> received = to_first(own);
  if (processes_.rank() != 0) return;
  received[0] = own;
  std::vector<bool> seen(static_cast<std::size_t>(whole_size_), false);
  Index filled = 0;
  for (std::size_t p = 0; p < received.size(); ++p)
    for (const double number : received[p]) {
      const auto n = static_cast<Index>(number);
      if (n < 0 || n >= whole_size_ || seen[static_cast<std::size_t>(n)])
        throw std::invalid_argument("PartGather: process " + std::to_string(p) + " holds entry " + std::to_string(n) +
                                    (n < 0 || n >= whole_size_ ? " of a whole of " + std::to_string(whole_size_)
                                                               : ", which another process holds too"));
      seen[static_cast<std::size_t>(n)] = true;
      ++filled;
    }
  if (filled != whole_size_)
    throw std::invalid_argument("PartGather: the processes hold " + std::to_string(filled) + " of the whole's " +
                                std::to_string(whole_size_) + " entries");
}

std::vector<double> PartGather::numbered(std::span<const double> payload) const {
  std::vector<double> message{static_cast<double>(held_numbers_.size())};
  message.insert(message.end(), held_numbers_.begin(), held_numbers_.end());
  message.insert(message.end(), payload.begin(), payload.end());
  return message;
}

std::vector<std::vector<double>> PartGather::to_first(std::span<const double> values) const {
  const std::vector<Index> counts = counts_of_processes(processes_, static_cast<Index>(values.size()));
  std::vector<std::vector<double>> received(counts.size());
  std::vector<Distribution::Outgoing> sends;
  std::vector<Distribution::Incoming> receives;
  if (processes_.rank() == 0) {
    for (std::size_t p = 1; p < counts.size(); ++p) {
      received[p].resize(static_cast<std::size_t>(counts[p]));
      receives.push_back({static_cast<int>(p), received[p]});
    }
  } else {
    sends.push_back({0, values});
  }
  processes_.exchange(sends, receives);
  return received;
}

Vector PartGather::gather(std::span<const double> held) const {
  if (held.size() != held_numbers_.size())
    throw std::invalid_argument("PartGather::gather: " + std::to_string(held.size()) + " values for " +
                                std::to_string(held_numbers_.size()) + " held entries");
  const std::vector<double> own = numbered(held);
  const std::vector<std::vector<double>> received = to_first(own);
  if (processes_.rank() != 0) return {};
  Vector whole(whole_size_);
  for (std::size_t p = 0; p < received.size(); ++p) {
    const std::span<const double> message = p == 0 ? std::span<const double>(own) : std::span<const double>(received[p]);
    const auto n = static_cast<std::size_t>(message[0]);
    for (std::size_t k = 0; k < n; ++k) whole(static_cast<Index>(message[1 + k])) = message[1 + n + k];
  }
  return whole;
}

std::vector<std::string> PartGather::gather(std::span<const std::string> held) const {
  if (held.size() != held_numbers_.size())
    throw std::invalid_argument("PartGather::gather: " + std::to_string(held.size()) + " texts for " +
                                std::to_string(held_numbers_.size()) + " held entries");
  std::string bytes;
  for (const std::string& text : held) {
    const std::size_t start = bytes.size();
    bytes += text;
    end_text(bytes, start);
  }
  const std::vector<double> own = numbered(pack_bytes(bytes));
  const std::vector<std::vector<double>> received = to_first(own);
  if (processes_.rank() != 0) return {};
  std::vector<std::string> whole(static_cast<std::size_t>(whole_size_));
  for (std::size_t p = 0; p < received.size(); ++p) {
    const std::span<const double> message = p == 0 ? std::span<const double>(own) : std::span<const double>(received[p]);
    const auto n = static_cast<std::size_t>(message[0]);
    const std::string unpacked = unpack_bytes(message.subspan(1 + n));
    const std::vector<std::string_view> texts = split_texts(unpacked, n);
    for (std::size_t k = 0; k < n; ++k) whole[static_cast<std::size_t>(message[1 + k])] = texts[k];
  }
  return whole;
}

void PartGather::for_each(const HeldText& text, const HeldValue& value, const Visit& visit) const {
  // The held entries by their numbers in the whole: as held where they come in that order (a
  // part's coordinates and rows do), else sorted here.
  std::vector<std::size_t> sorted(std::ranges::is_sorted(held_numbers_) ? 0 : held_numbers_.size());
  std::iota(sorted.begin(), sorted.end(), std::size_t{0});
  std::ranges::sort(sorted, {}, [this](std::size_t k) { return held_numbers_[k]; });
  const auto held = [&](std::size_t n) { return sorted.empty() ? n : sorted[n]; };
  const bool with_texts = static_cast<bool>(text);
  std::exception_ptr failure;
  std::size_t next = 0;  // the first held entry, in the whole's order, not sent yet
  for (Index begin = 0; begin < whole_size_; begin += kChunk) {
    const Index end = std::min(whole_size_, begin + kChunk);
    std::string chunk_texts;
    std::vector<double> numbers, chunk_values;
    for (; next < held_numbers_.size() && held_numbers_[held(next)] < end; ++next) {
      numbers.push_back(static_cast<double>(held_numbers_[held(next)]));
      chunk_values.push_back(value(held(next)));
      if (!with_texts) continue;
      const std::size_t start = chunk_texts.size();
      text(held(next), chunk_texts);
      end_text(chunk_texts, start);
    }
    std::vector<double> message{static_cast<double>(numbers.size())};  // n, n numbers, n values, the texts
    message.insert(message.end(), numbers.begin(), numbers.end());
    message.insert(message.end(), chunk_values.begin(), chunk_values.end());
    if (with_texts) {
      const std::vector<double> packed = pack_bytes(chunk_texts);
      message.insert(message.end(), packed.begin(), packed.end());
    }
    const std::vector<std::vector<double>> received = to_first(message);
    if (processes_.rank() != 0 || failure) continue;
    try {
      visit_chunk(begin, end, received, message, with_texts, visit);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

void PartGather::visit_chunk(Index begin, Index end, const std::vector<std::vector<double>>& received,
                             std::span<const double> own_message, bool with_texts, const Visit& visit) const {
  const auto size = static_cast<std::size_t>(end - begin);
  std::vector<std::string> bytes(received.size());  // each process's texts, viewed by `texts`
  std::vector<std::string_view> texts(size);
  std::vector<double> values(size);
  for (std::size_t p = 0; p < received.size(); ++p) {
    const std::span<const double> message = p == 0 ? own_message : std::span<const double>(received[p]);
    const auto n = static_cast<std::size_t>(message[0]);
    std::vector<std::string_view> unpacked;
    if (with_texts) {
      bytes[p] = unpack_bytes(message.subspan(1 + 2 * n));
      unpacked = split_texts(bytes[p], n);
    }
    for (std::size_t k = 0; k < n; ++k) {
      const auto at = static_cast<std::size_t>(message[1 + k]) - static_cast<std::size_t>(begin);
      values[at] = message[1 + n + k];
      if (with_texts) texts[at] = unpacked[k];
    }
  }
  std::string text;  // one buffer for every visit's text: no allocation per entry
  for (std::size_t at = 0; at < size; ++at) {
    text.assign(texts[at]);
    visit(text, values[at]);
  }
}

}  // namespace noether
