#include <noether/apps/interrupt_signals.hpp>

#include <csignal>
#include <stdexcept>

namespace noether {
namespace {

// Written by the signal handler: only a lock-free atomic may be.
static_assert(std::atomic<int>::is_always_lock_free);
std::atomic<int> requested_signal{0};
std::atomic<bool> installed{false};
struct sigaction previous_hup, previous_int, previous_term;

extern "C" void store_signal(int signal) { requested_signal.store(signal, std::memory_order_relaxed); }

/// Installs store_signal for `signal` unless the signal is ignored; previous gets the old action.
void install(int signal, struct sigaction& previous) {
  sigaction(signal, nullptr, &previous);
  if (previous.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = store_signal;
  sigemptyset(&action.sa_mask);
  // A second signal takes the default action (the process ends); calls it interrupts resume.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(signal, &action, nullptr);
}

}  // namespace

InterruptSignals::InterruptSignals() {
  if (installed.exchange(true)) throw std::logic_error("InterruptSignals: one object at a time");
  requested_signal.store(0);
  install(SIGHUP, previous_hup);
  install(SIGINT, previous_int);
  install(SIGTERM, previous_term);
}

InterruptSignals::~InterruptSignals() {
  sigaction(SIGHUP, &previous_hup, nullptr);
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
  installed.store(false);
}

const std::atomic<int>& InterruptSignals::requested() const { return requested_signal; }

std::string signal_name(int signal) {
  switch (signal) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace noether
