#pragma once
/// Output files that never claim more than was written (docs/output.md, "How the files are
/// written"). Every file is written under a temporary name in its output directory, its writes,
/// fsync and close checked, and renamed into place; nothing is opened through a symlink, and a
/// symlink in the directory is replaced by the rename, never written through.
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace noether {

/// An output file could not be written. The message names the file, what failed and the
/// system's reason: "writing '/out/timeseries.csv.partial' failed: No space left on device".
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The system calls through which output bytes reach the disk; a full disk or a failing device
/// shows up in them and nowhere else: write returns -1 with ENOSPC, EFBIG or EIO, or writes fewer
/// bytes than asked (the last bytes before the disk filled); fsync and close return -1 with ENOSPC
/// or EIO where the file system allocates blocks late (NFS, delayed allocation). Tests derive
/// from this class to inject exactly these results.
class FileCalls {
 public:
  virtual ~FileCalls() = default;
  virtual ssize_t write(int fd, const void* data, std::size_t size) const;
  virtual int fsync(int fd) const;
  virtual int close(int fd) const;
  /// syncfs(2): commits the whole file system that holds fd, after writes that deferred their sync.
  virtual int syncfs(int fd) const;
};

/// The real system calls.
const FileCalls& system_file_calls();

/// An output directory, opened once: every file in it is reached through its descriptor, so that
/// a symlink inside it is never followed. An exclusive lock (flock) on it, held while the object
/// lives, keeps two runs from writing into the same directory.
class OutputDirectory {
 public:
  /// Whether the object takes the directory's exclusive lock (flock) while it lives.
  enum class Lock { exclusive, none };
  /// Creates path and its parents when missing (path itself may be a symlink to a directory) and
  /// opens it, locked unless `lock` is none (`noether plot` reads a run's directory, which the run
  /// may hold, and locks the plots/ it writes). Throws OutputError naming path and the reason, also
  /// when another process holds the lock.
  explicit OutputDirectory(std::filesystem::path path, const FileCalls& calls = system_file_calls(),
                           Lock lock = Lock::exclusive);
  /// The subdirectory `name` of parent (which must outlive it), created when missing, reached
  /// through parent's descriptor and never through a symlink: an entry `name` that is not a
  /// directory (a symlink, a file) is removed first, as create does (vtk/ of a run, plots/ of
  /// `noether plot`). Not locked unless `lock` says so (a run's parent is).
  OutputDirectory(const OutputDirectory& parent, std::string_view name, Lock lock = Lock::none);
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory&) = delete;
  OutputDirectory& operator=(const OutputDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }
  const FileCalls& calls() const { return calls_; }

  /// Replaces the entry `name` by a file holding `contents`: written to `name`.tmp, synced and
  /// renamed over `name`, so that a reader (or a crash) sees the old file or the new one, never a
  /// part. On failure the old entry is untouched, the temporary file removed, and OutputError thrown.
  /// Durability::deferred skips the two fsyncs (file and directory), a few milliseconds each on a
  /// disk: the file is complete for any reader at once, and sync() later makes it outlive a crash.
  enum class Durability { synced, deferred };
  void replace(std::string_view name, std::string_view contents, Durability durability = Durability::synced) const;
  /// The same with the contents written piece by piece as `compose` hands them to its argument, so
  /// that a file of the model's size is never held whole in memory (final_state.json). An exception
  /// that `compose` throws removes the temporary file too and reaches the caller as itself.
  using PieceWriter = std::function<void(std::string_view)>;
  void replace_in_pieces(std::string_view name, const std::function<void(const PieceWriter&)>& compose,
                         Durability durability = Durability::synced) const;
  /// Commits to the disk what the replacements with Durability::deferred left in memory (syncfs
  /// of the directory's file system); OutputError when the system reports a write error.
  void sync() const;
  /// The names of the directory's entries, "." and ".." left out, in no particular order.
  std::vector<std::string> entries() const;
  /// Removes the entry `name` (a symlink itself, not its target); nothing when there is none.
  void remove(std::string_view name) const;
  /// Renames the entry `from` to `to`, replacing an entry `to` (a symlink itself, never its
  /// target), and syncs the directory so that the rename outlives a crash.
  void rename(std::string_view from, std::string_view to) const;
  /// Creates the file `name` for writing (mode 0644 less the umask) and returns its descriptor. An
  /// entry of that name (a file, a symlink) is removed first and the file created exclusively
  /// (O_EXCL, O_NOFOLLOW): what is written goes into a new file of this directory, never elsewhere.
  int create(std::string_view name) const;
  /// Opens the existing regular file `name` for writing (never through a symlink), cut back to
  /// `length` bytes, positioned at its end; the descriptor is returned. Throws OutputError naming
  /// the file when it cannot be opened, is not a regular file or holds fewer than `length` bytes.
  int reopen(std::string_view name, std::uint64_t length) const;
  /// Whether the entry `name` is a regular file (not a symlink to one).
  bool holds_file(std::string_view name) const;

  /// "writing '<path>/<name>' failed: <strerror(errno)>" for `action` = "writing"; errno as left
  /// by the call that failed.
  OutputError error(std::string_view action, std::string_view name) const;

 private:
  /// Takes the exclusive lock, or closes the directory and throws OutputError when another
  /// process holds it.
  void take_lock();

  std::filesystem::path path_;
  const FileCalls& calls_;
  int fd_ = -1;
};

/// A file that grows while the run lasts: written under `staging_name` (the run's summary names
/// it while the run goes on), then renamed to `final_name` by commit. flush() ends a record, and
/// a record too long to buffer whole is handed over in pieces (flush_within_record); a flush that
/// fails (the disk filled part-way) cuts the file back to the end of the last whole record, so no
/// torn record stays in it. A reader of the staging file may see the record being written without
/// its end (noether plot leaves out a last line without its newline).
class StagedFile {
 public:
  /// Creates staging_name in directory (OutputDirectory::create), which must outlive the file.
  StagedFile(const OutputDirectory& directory, std::string staging_name, std::string final_name);
  /// Continues the file staging_name, which exists and holds at least `length` bytes, from its
  /// first `length` bytes (a checkpoint's; what follows them is cut off): OutputDirectory::reopen.
  StagedFile(const OutputDirectory& directory, std::string staging_name, std::string final_name, std::uint64_t length);
  /// Closes the file when commit was not reached; it stays under its staging name with what was flushed.
  ~StagedFile();
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;

  /// Adds bytes to the buffer.
  void append(std::string_view bytes) { buffer_.append(bytes); }
  /// Hands the buffer to the kernel when it holds kFlushBytes or the last flush is kFlushInterval
  /// old, so that a reader of the staging file sees the records of the last second.
  void flush_if_due();
  /// Hands the whole buffer, which ends a record, to the kernel (write, repeated for short
  /// writes). Throws OutputError when a write fails, after cutting the file back to the end of the
  /// last whole record.
  void flush();
  /// Within a record: hands the buffer to the kernel when it holds kFlushBytes, so that a record
  /// of the model's size (a time series row over parts) is never buffered whole. Throws
  /// OutputError as flush does, after cutting the file back to the end of the last whole record.
  void flush_within_record();
  /// flush and fsync: the bytes_flushed() bytes are on the disk when it returns (OutputError
  /// naming the file and the reason otherwise).
  void sync();
  /// flush, fsync, close and rename to the final name, each checked (OutputError naming the
  /// file and the reason). After a failure the file keeps its staging name and what was flushed.
  void commit();

  /// Bytes in the file up to the end of its last whole record (what a checkpoint records to cut
  /// the file back to on resume; after flush() all that the flushes wrote).
  std::size_t bytes_flushed() const { return record_end_; }
  const std::string& staging_name() const { return staging_name_; }
  const std::string& final_name() const { return final_name_; }

  static constexpr std::size_t kFlushBytes = std::size_t{1} << 16;
  static constexpr std::chrono::milliseconds kFlushInterval{1000};

 private:
  void close_once();

  const OutputDirectory& directory_;
  std::string staging_name_, final_name_;
  int fd_ = -1;
  /// Writes the buffer; on failure cuts the file back to record_end_ and throws OutputError.
  void write_buffer();

  std::string buffer_;
  std::size_t flushed_ = 0;     ///< bytes the flushes wrote
  std::size_t record_end_ = 0;  ///< bytes up to the end of the last whole record written
  std::chrono::steady_clock::time_point last_flush_;
};

}  // namespace noether
