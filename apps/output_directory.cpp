#include <noether/apps/output_directory.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <noether/engine/quote.hpp>

namespace noether {
namespace {

/// Writes all `size` bytes, repeating short writes and writes interrupted by a signal; false with
/// errno set when a write fails (a write of nothing counts as EIO).
bool write_all(const FileCalls& calls, int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = calls.write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      if (written == 0) errno = EIO;
      return false;
    }
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

/// path as quote() quotes a name.
std::string quote(const std::filesystem::path& path) { return noether::quote(std::string_view(path.native())); }

}  // namespace

ssize_t FileCalls::write(int fd, const void* data, std::size_t size) const { return ::write(fd, data, size); }
int FileCalls::fsync(int fd) const { return ::fsync(fd); }
int FileCalls::close(int fd) const { return ::close(fd); }
int FileCalls::syncfs(int fd) const { return ::syncfs(fd); }

const FileCalls& system_file_calls() {
  static const FileCalls calls;
  return calls;
}

OutputDirectory::OutputDirectory(std::filesystem::path path, const FileCalls& calls, Lock lock)
    : path_(std::move(path)), calls_(calls) {
  std::error_code error;
  std::filesystem::create_directories(path_, error);
  if (error) {
    std::error_code ignored;
    const bool dangling = std::filesystem::is_symlink(path_, ignored) && !std::filesystem::exists(path_, ignored);
    const std::string reason = dangling ? "a symlink to " + quote(std::filesystem::read_symlink(path_, ignored)) +
                                              ", which does not exist"
                                        : error.message();  // "File exists" would be all it said of a dangling one
    throw OutputError("cannot create the output directory " + quote(path_) + " (" + reason +
                      "): choose a writable --out directory");
  }
  fd_ = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) throw OutputError("cannot open the output directory " + quote(path_) + ": " + std::strerror(errno));
  if (lock == Lock::exclusive) take_lock();
}

void OutputDirectory::take_lock() {
  // A file system without flock (some network mounts) leaves the directory unlocked: the lock
  // guards against a mistake, and its absence must not stop a run.
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    ::close(fd_);
    throw OutputError("another noether run is writing into the output directory " + quote(path_) +
                      ": wait until it ends or choose another --out directory");
  }
}

OutputDirectory::OutputDirectory(const OutputDirectory& parent, std::string_view name, Lock lock)
    : path_(parent.path_ / name), calls_(parent.calls_) {
  const std::string entry(name);
  const auto open_directory = [&] { return ::openat(parent.fd_, entry.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); };
  fd_ = open_directory();
  if (fd_ < 0 && (errno == ELOOP || errno == ENOTDIR)) {  // a symlink or a file: removed, never followed
    parent.remove(name);
    errno = ENOENT;
  }
  if (fd_ < 0 && errno != ENOENT) throw parent.error("opening the directory", name);
  if (fd_ < 0) {
    if (::mkdirat(parent.fd_, entry.c_str(), 0755) != 0) throw parent.error("creating the directory", name);
    fd_ = open_directory();
    if (fd_ < 0) throw parent.error("opening the directory", name);
  }
  if (lock == Lock::exclusive) take_lock();
}

OutputDirectory::~OutputDirectory() { ::close(fd_); }

OutputError OutputDirectory::error(std::string_view action, std::string_view name) const {
  const char* reason = std::strerror(errno);
  return OutputError(std::string(action) + " " + quote(path_ / name) + " failed: " + reason);
}

int OutputDirectory::create(std::string_view name) const {
  remove(name);
  const std::string entry(name);
  const int fd = ::openat(fd_, entry.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw error("creating", name);
  return fd;
}

int OutputDirectory::reopen(std::string_view name, std::uint64_t length) const {
  const std::string entry(name);
  const int fd = ::openat(fd_, entry.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) throw error("opening", name);
  struct stat status {};
  const auto fail = [&](const std::string& what) {
    ::close(fd);
    return OutputError(quote(path_ / name) + " " + what);
  };
  if (::fstat(fd, &status) != 0) throw fail(std::string("cannot be examined: ") + std::strerror(errno));
  if (!S_ISREG(status.st_mode)) throw fail("is not a regular file");
  if (static_cast<std::uint64_t>(status.st_size) < length)
    throw fail("holds " + std::to_string(status.st_size) + " bytes, fewer than the " + std::to_string(length) +
               " to continue from");
  if (::ftruncate(fd, static_cast<off_t>(length)) != 0 || ::lseek(fd, 0, SEEK_END) < 0) {
    const int reason = errno;
    ::close(fd);
    errno = reason;
    throw error("cutting back", name);
  }
  return fd;
}

bool OutputDirectory::holds_file(std::string_view name) const {
  const std::string entry(name);
  struct stat status {};
  return ::fstatat(fd_, entry.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(status.st_mode);
}

void OutputDirectory::remove(std::string_view name) const {
  const std::string entry(name);
  if (::unlinkat(fd_, entry.c_str(), 0) != 0 && errno != ENOENT) throw error("removing", name);
}

void OutputDirectory::rename(std::string_view from, std::string_view to) const {
  const std::string source(from), target(to);
  if (::renameat(fd_, source.c_str(), fd_, target.c_str()) != 0) throw error("renaming " + quote(path_ / from) + " to", to);
  // Some file systems cannot sync a directory (EINVAL); the rename itself has succeeded.
  if (calls_.fsync(fd_) != 0 && errno != EINVAL) throw error("syncing the directory after renaming", to);
}

void OutputDirectory::replace(std::string_view name, std::string_view contents, Durability durability) const {
  replace_in_pieces(name, [&](const PieceWriter& write) { write(contents); }, durability);
}

void OutputDirectory::replace_in_pieces(std::string_view name, const std::function<void(const PieceWriter&)>& compose,
                                        Durability durability) const {
  const std::string temporary = std::string(name) + ".tmp";
  const int fd = create(temporary);
  const auto fail = [&](std::string_view action, bool open) {
    const int reason = errno;
    if (open) calls_.close(fd);
    ::unlinkat(fd_, temporary.c_str(), 0);
    errno = reason;
    return error(action, name);
  };
  bool removed = false;  // by fail, after a write that failed
  try {
    compose([&](std::string_view piece) {
      if (write_all(calls_, fd, piece.data(), piece.size())) return;
      removed = true;
      throw fail("writing", true);
    });
  } catch (...) {
    if (!removed) {
      calls_.close(fd);
      ::unlinkat(fd_, temporary.c_str(), 0);
    }
    throw;
  }
  const bool synced = durability == Durability::synced;
  if (synced && calls_.fsync(fd) != 0) throw fail("syncing", true);
  if (calls_.close(fd) != 0) throw fail("closing", false);
  if (!synced) {
    if (::renameat(fd_, temporary.c_str(), fd_, std::string(name).c_str()) != 0) throw fail("renaming the temporary file of", false);
    return;
  }
  try {
    rename(temporary, name);
  } catch (const OutputError&) {
    ::unlinkat(fd_, temporary.c_str(), 0);
    throw;
  }
}

void OutputDirectory::sync() const {
  if (calls_.syncfs(fd_) != 0) throw OutputError("syncing the files written into " + quote(path_) + " failed: " + std::strerror(errno));
}

std::vector<std::string> OutputDirectory::entries() const {
  const int listing = ::dup(fd_);  // closedir closes the descriptor it was given
  DIR* directory = listing < 0 ? nullptr : ::fdopendir(listing);
  if (!directory) {
    if (listing >= 0) ::close(listing);
    throw OutputError("listing the directory " + quote(path_) + " failed: " + std::strerror(errno));
  }
  ::rewinddir(directory);
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(directory)) {
    const std::string_view entry = e->d_name;
    if (entry != "." && entry != "..") names.emplace_back(entry);
  }
  ::closedir(directory);
  return names;
}

StagedFile::StagedFile(const OutputDirectory& directory, std::string staging_name, std::string final_name)
    : directory_(directory),
      staging_name_(std::move(staging_name)),
      final_name_(std::move(final_name)),
      fd_(directory.create(staging_name_)),
      last_flush_(std::chrono::steady_clock::now()) {}

StagedFile::StagedFile(const OutputDirectory& directory, std::string staging_name, std::string final_name,
                       std::uint64_t length)
    : directory_(directory),
      staging_name_(std::move(staging_name)),
      final_name_(std::move(final_name)),
      fd_(directory.reopen(staging_name_, length)),
      flushed_(static_cast<std::size_t>(length)),
      record_end_(flushed_),
      last_flush_(std::chrono::steady_clock::now()) {}

StagedFile::~StagedFile() {
  if (fd_ >= 0) directory_.calls().close(fd_);
}

void StagedFile::flush_if_due() {
  const auto now = std::chrono::steady_clock::now();
  if (buffer_.size() >= kFlushBytes || now - last_flush_ >= kFlushInterval) flush();
}

void StagedFile::flush() {
  last_flush_ = std::chrono::steady_clock::now();
  write_buffer();
  record_end_ = flushed_;
}

void StagedFile::flush_within_record() {
  if (buffer_.size() >= kFlushBytes) write_buffer();
}

void StagedFile::write_buffer() {
  if (buffer_.empty()) return;
  if (!write_all(directory_.calls(), fd_, buffer_.data(), buffer_.size())) {
    const int reason = errno;
    buffer_.clear();
    // Cutting a file back needs no free space: the file ends with the last whole record.
    if (::ftruncate(fd_, static_cast<off_t>(record_end_)) == 0) ::lseek(fd_, static_cast<off_t>(record_end_), SEEK_SET);
    flushed_ = record_end_;
    errno = reason;
    throw directory_.error("writing", staging_name_);
  }
  flushed_ += buffer_.size();
  buffer_.clear();
}

void StagedFile::sync() {
  flush();
  if (directory_.calls().fsync(fd_) != 0) throw directory_.error("syncing", staging_name_);
}

void StagedFile::close_once() {
  const int fd = fd_;
  fd_ = -1;
  if (directory_.calls().close(fd) != 0) throw directory_.error("closing", staging_name_);
}

void StagedFile::commit() {
  sync();
  close_once();
  directory_.rename(staging_name_, final_name_);
}

}  // namespace noether
