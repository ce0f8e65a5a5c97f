#pragma once
/// SIGHUP, SIGINT and SIGTERM as a request to stop a run cleanly (docs/cli.md, "Signals").
#include <atomic>
#include <string>

namespace noether {

/// While an InterruptSignals lives, the first SIGHUP, SIGINT or SIGTERM does not end the process:
/// its handler stores the signal's number in requested(), which the run reads before each step
/// (RunOptions::interrupt); the step in progress finishes, the outputs are closed and the run
/// ends interrupted. SIGHUP (the terminal closed, or the session's leader ended) is a request to
/// stop like the other two: ending at once would leave the summary saying running and the rows
/// partial. The handler then resets itself (SA_RESETHAND), so a second signal ends the process at
/// once. A signal ignored when the object is made (SIGINT of a background job of a
/// non-interactive shell, SIGHUP under nohup) stays ignored. One object at a time; the destructor
/// restores the previous actions.
class InterruptSignals {
 public:
  InterruptSignals();
  ~InterruptSignals();
  InterruptSignals(const InterruptSignals&) = delete;
  InterruptSignals& operator=(const InterruptSignals&) = delete;

  /// 0 until a signal arrives, then its number.
  const std::atomic<int>& requested() const;
};

/// "SIGHUP", "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signal);

}  // namespace noether
