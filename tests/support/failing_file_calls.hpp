#pragma once
/// FileCalls that fail the way a full disk or a failing device does, for the output tests.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>

#include <noether/apps/output_directory.hpp>

namespace noether::testing {

/// The real calls, except on files whose name contains `target`: there write accepts `budget`
/// bytes in all (the last write that reaches it is cut short, as on a disk that fills up during
/// it) in at most `writes` calls, and then fails with write_errno (ENOSPC: no space left on the
/// device); fsync fails with
/// fsync_errno and close with close_errno when those are non-zero (a file system that allocates
/// late reports the full disk there, NFS and ext4's delayed allocation among them). The
/// `target` file is found by its /proc/self/fd link, as the kernel names it.
class FailingFileCalls : public FileCalls {
 public:
  std::string target;
  std::size_t budget = std::numeric_limits<std::size_t>::max();
  std::size_t writes = std::numeric_limits<std::size_t>::max();
  int write_errno = ENOSPC;
  int fsync_errno = 0;
  int close_errno = 0;
  /// Set on the first call the fault hits.
  mutable bool injected = false;

  ssize_t write(int fd, const void* data, std::size_t size) const override {
    if (!is_target(fd)) return FileCalls::write(fd, data, size);
    if (written_ >= budget || calls_ >= writes) return fail(write_errno);
    const std::size_t accepted = std::min(size, budget - written_);
    const ssize_t result = FileCalls::write(fd, data, accepted);
    if (result > 0) written_ += static_cast<std::size_t>(result);
    ++calls_;
    return result;
  }
  int fsync(int fd) const override {
    return fsync_errno != 0 && is_target(fd) ? static_cast<int>(fail(fsync_errno)) : FileCalls::fsync(fd);
  }
  int close(int fd) const override {
    if (close_errno == 0 || !is_target(fd)) return FileCalls::close(fd);
    FileCalls::close(fd);  // the descriptor is gone even when close reports an error (POSIX, Linux)
    return static_cast<int>(fail(close_errno));
  }

 private:
  bool is_target(int fd) const {
    std::error_code error;
    const std::filesystem::path file = std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(fd), error);
    return !error && file.filename().string().find(target) != std::string::npos;
  }
  ssize_t fail(int code) const {
    injected = true;
    errno = code;
    return -1;
  }
  mutable std::size_t written_ = 0, calls_ = 0;
};

}  // namespace noether::testing
