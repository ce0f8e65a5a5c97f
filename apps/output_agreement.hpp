#pragma once
/// Output errors that the processes of a run over several agree on (docs/distributed.md,
/// "Endings"): where every process writes its own file at the same point (its piece of a
/// drawing), each says whether its write failed, and all learn at once whether any did and why,
/// so that every process ends the run there, with the same message, none alone.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include <noether/apps/output_directory.hpp>
#include <noether/engine/distribution.hpp>

namespace noether {

/// An output error that every process of a run over several met at the same point, having agreed
/// on it (agree_on_output): the run ends on every process together (RunEnding::Failure::agreed).
class SharedOutputError : public OutputError {
 public:
  using OutputError::OutputError;
};

/// The longest message agree_on_output passes on, in bytes.
inline constexpr std::size_t kAgreedMessageBytes = 1024;

/// Collective: every process of `processes` calls it at the same point, with the message of its
/// own output error there (nullopt: it had none). Returns when none had one; otherwise throws, on
/// every process alike, SharedOutputError with "rank r: <its message>" of the lowest rank r that
/// had one (cut at kAgreedMessageBytes bytes), followed by "; k more ranks failed too" when others
/// had one too. Costs one sum of ranks() doubles, and one more of kAgreedMessageBytes when one
/// failed.
void agree_on_output(const Distribution& processes, const std::optional<std::string>& own);

/// Collective: runs `write` (this process's own output at a point all reach) and agrees with every
/// process on whether an OutputError stopped it (agree_on_output with that error's message).
void write_agreed(const Distribution& processes, const std::function<void()>& write);

}  // namespace noether
