#include <noether/apps/progress_line.hpp>

#include <sstream>

namespace noether {

ProgressLine::ProgressLine(std::ostream& out, std::int64_t total_steps) : out_(out), total_steps_(total_steps) {}

void ProgressLine::update(std::int64_t step, double t, int newton_iterations) {
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && step < total_steps_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  std::ostringstream line;
  line << "\rstep " << step << '/' << total_steps_ << "  t = " << t << "  Newton iterations " << newton_iterations
       << "   ";
  out_ << line.str() << std::flush;
  last_draw_ = now;
  drawn_ = true;
}

void ProgressLine::finish() {
  if (drawn_) out_ << '\n' << std::flush;
  drawn_ = false;
}

}  // namespace noether
