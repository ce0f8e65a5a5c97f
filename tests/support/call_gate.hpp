#pragma once
/// A gate that holds one call inside an element's function (a potential's energy or gradient)
/// until another thread has made its own call: the tests of what a Stepper does when two threads
/// step it at once. Every wait ends after 30 s, so that a test of an unguarded stepper fails
/// instead of hanging.
#include <chrono>
#include <condition_variable>
#include <mutex>

namespace noether::testing {

class CallGate {
 public:
  /// The next pass() blocks.
  void arm() { armed_ = true; }
  /// Called by the element's function: blocks once, the first time after arm(), until release().
  void pass() {
    std::unique_lock lock(mutex_);
    if (!armed_) return;
    armed_ = false;
    inside_ = true;
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::seconds(30), [this] { return released_; });
  }
  /// Whether a call is held in pass(), after waiting up to 30 s for one.
  bool wait_inside() {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(30), [this] { return inside_; });
  }
  /// Lets the held call (and any later one) through.
  void release() {
    const std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool armed_ = false, inside_ = false, released_ = false;
};

}  // namespace noether::testing
