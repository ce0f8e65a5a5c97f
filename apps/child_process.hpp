#pragma once
/// Running another program without a shell: its arguments are passed as they are, never parsed.
#include <filesystem>
#include <string>
#include <vector>

namespace noether {

/// How a program run by run_program ended.
struct ProgramResult {
  bool started = false;  ///< false: it could not be started (not on PATH, not executable); see start_error
  int start_error = 0;   ///< errno of the failed start
  int exit_code = -1;    ///< its exit status when it exited; -1 when a signal ended it
  int signal = 0;        ///< the signal that ended it, 0 when it exited
  std::string stderr_text;
};

/// Runs arguments[0] (searched on PATH when it has no '/') with `arguments` as its argv, in the
/// working directory `directory`, stdin and stdout on /dev/null, and collects its stderr; waits
/// for it to end. Throws std::runtime_error when the pipe or the wait fail.
ProgramResult run_program(const std::vector<std::string>& arguments, const std::filesystem::path& directory);

}  // namespace noether
