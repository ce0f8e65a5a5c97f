#include <noether/apps/output_agreement.hpp>

#include <algorithm>
#include <vector>

namespace noether {
namespace {

/// The message of rank `from`, on every process: its bytes as doubles (whole numbers 0 to 255,
/// the other processes adding zeros, so the sum is exact) and their count.
std::string message_of(const Distribution& processes, int from, const std::string& own) {
  std::vector<double> bytes(kAgreedMessageBytes + 1, 0.0);
  if (processes.rank() == from) {
    const std::size_t length = std::min(own.size(), kAgreedMessageBytes);
    bytes[0] = static_cast<double>(length);
    for (std::size_t i = 0; i < length; ++i) bytes[i + 1] = static_cast<unsigned char>(own[i]);
  }
  processes.sum(bytes);
  std::string message(static_cast<std::size_t>(bytes[0]), '\0');
  for (std::size_t i = 0; i < message.size(); ++i)
    message[i] = static_cast<char>(static_cast<unsigned char>(bytes[i + 1]));
  return message;
}

}  // namespace

void agree_on_output(const Distribution& processes, const std::optional<std::string>& own) {
  std::vector<double> failed(static_cast<std::size_t>(processes.ranks()), 0.0);
  failed[static_cast<std::size_t>(processes.rank())] = own ? 1.0 : 0.0;
  processes.sum(failed);
  const auto first = std::ranges::find(failed, 1.0);
  if (first == failed.end()) return;
  const auto rank = static_cast<int>(first - failed.begin());
  std::string message = "rank " + std::to_string(rank) + ": " + message_of(processes, rank, own.value_or(""));
  if (const auto more = std::count(first + 1, failed.end(), 1.0); more > 0)
    message += "; " + std::to_string(more) + " more rank" + (more > 1 ? "s" : "") + " failed too";
  throw SharedOutputError(message);
}

void write_agreed(const Distribution& processes, const std::function<void()>& write) {
  std::optional<std::string> failure;
  try {
    write();
  } catch (const OutputError& e) {
    failure = e.what();
  }
  agree_on_output(processes, failure);
}

}  // namespace noether
