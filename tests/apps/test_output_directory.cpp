/// The output layer (apps/output_directory.hpp): files replaced atomically, failures of a full
/// disk reported with their reason and leaving no torn or empty file, symlinks never followed.
#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <noether/apps/output_directory.hpp>
#include "support/failing_file_calls.hpp"
#include "support/temp_dir.hpp"

using namespace noether;
using testing::FailingFileCalls;
using testing::entry_names;
using testing::read_file;
using testing::TempDir;
namespace fs = std::filesystem;

namespace {

/// The message of the OutputError that call throws ("" when it throws none).
template <class Call>
std::string output_error(Call&& call) {
  try {
    call();
  } catch (const OutputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("replace writes the whole file under its name and leaves no temporary file") {
  TempDir dir("out_replace");
  const OutputDirectory out(dir.path / "a" / "b");  // created with its parents
  out.replace("summary.json", "first\n");
  out.replace("summary.json", "second, longer\n");
  CHECK(read_file(dir.path / "a" / "b" / "summary.json") == "second, longer\n");
  CHECK(entry_names(dir.path / "a" / "b") == std::vector<std::string>{"summary.json"});
}

TEST_CASE("a disk that fills up while the summary is written: the old file stays whole, the reason is named") {
  // The failure to guard against (exit 0 and an empty summary.json): the disk fills after 10
  // bytes of the new file, so the kernel takes those and then refuses with ENOSPC.
  TempDir dir("out_full_replace");
  FailingFileCalls calls;
  calls.target = "summary.json";
  {
    const OutputDirectory real(dir.path / "sub");
    real.replace("summary.json", "{\"status\": \"completed\"}\n");
  }
  const OutputDirectory sub(dir.path / "sub", calls);
  calls.budget = 10;
  const std::string message = output_error([&] { sub.replace("summary.json", std::string(100, 'x')); });
  CHECK(calls.injected);
  CHECK(message == "writing '" + (dir.path / "sub" / "summary.json").string() + "' failed: No space left on device");
  CHECK(read_file(dir.path / "sub" / "summary.json") == "{\"status\": \"completed\"}\n");
  CHECK(entry_names(dir.path / "sub") == std::vector<std::string>{"summary.json"});  // the temporary file is gone
}

TEST_CASE("a file written in pieces has the pieces in order under its name, and a full disk or a failing composer leaves the old file and no temporary one") {
  TempDir dir("out_pieces");
  const auto three_pieces = [](const OutputDirectory::PieceWriter& write) {
    write("{\n");
    write(std::string(50, 'x'));
    write("\n}\n");
  };
  const std::string whole = "{\n" + std::string(50, 'x') + "\n}\n";
  {
    const OutputDirectory real(dir.path);
    real.replace_in_pieces("final_state.json", three_pieces);
    CHECK(read_file(dir.path / "final_state.json") == whole);
    const auto failing = [](const OutputDirectory::PieceWriter& write) {
      write("{\n");
      throw std::runtime_error("the composer failed");
    };
    CHECK_THROWS_WITH_AS(real.replace_in_pieces("final_state.json", failing), "the composer failed",
                         std::runtime_error);
    CHECK(read_file(dir.path / "final_state.json") == whole);
    CHECK(entry_names(dir.path) == std::vector<std::string>{"final_state.json"});
  }
  FailingFileCalls calls;
  calls.target = "final_state.json";
  calls.budget = 20;  // the second piece meets a full disk
  const OutputDirectory out(dir.path, calls);
  const std::string message = output_error([&] { out.replace_in_pieces("final_state.json", three_pieces); });
  CHECK(calls.injected);
  CHECK(message == "writing '" + (dir.path / "final_state.json").string() + "' failed: No space left on device");
  CHECK(read_file(dir.path / "final_state.json") == whole);
  CHECK(entry_names(dir.path) == std::vector<std::string>{"final_state.json"});
}

TEST_CASE("fsync and close failures (a full disk found late) are reported too, and the old file stays") {
  TempDir dir("out_late");
  fs::create_directories(dir.path);
  std::ofstream(dir.path / "summary.json") << "old\n";
  // A struct, not a tuple's structured binding: CAPTURE's lambda cannot capture a binding in clang 14.
  struct LateFailure {
    int fsync_errno;
    int close_errno;
    std::string action;  // as the message says it
    std::string reason;  // strerror of the errno
  };
  for (const LateFailure& failure : {LateFailure{EIO, 0, "syncing", "Input/output error"},
                                     LateFailure{0, ENOSPC, "closing", "No space left on device"}}) {
    CAPTURE(failure.action);
    FailingFileCalls calls;
    calls.target = "summary.json.tmp";
    calls.fsync_errno = failure.fsync_errno;
    calls.close_errno = failure.close_errno;
    const OutputDirectory out(dir.path, calls);
    const std::string message = output_error([&] { out.replace("summary.json", "new\n"); });
    CHECK(message == failure.action + " '" + (dir.path / "summary.json").string() + "' failed: " + failure.reason);
    CHECK(read_file(dir.path / "summary.json") == "old\n");
    CHECK(entry_names(dir.path) == std::vector<std::string>{"summary.json"});
  }
}

TEST_CASE("a symlink in the output directory is replaced, never written through") {
  // summary.json a symlink to another file, which a run must not overwrite.
  TempDir dir("out_symlink");
  fs::create_directories(dir.path / "out");
  std::ofstream(dir.path / "victim") << "precious\n";
  fs::create_symlink(dir.path / "victim", dir.path / "out" / "summary.json");
  fs::create_symlink(dir.path / "victim", dir.path / "out" / "summary.json.tmp");
  fs::create_symlink(dir.path / "victim", dir.path / "out" / "rows.partial");
  fs::create_symlink(dir.path / "victim", dir.path / "out" / "rows");
  const OutputDirectory out(dir.path / "out");
  out.replace("summary.json", "mine\n");
  StagedFile rows(out, "rows.partial", "rows");
  rows.append("a,b\n");
  rows.commit();
  CHECK(read_file(dir.path / "victim") == "precious\n");
  for (const char* name : {"summary.json", "rows"}) {
    CAPTURE(name);
    CHECK(fs::is_regular_file(fs::symlink_status(dir.path / "out" / name)));
  }
  CHECK(read_file(dir.path / "out" / "summary.json") == "mine\n");
  CHECK(read_file(dir.path / "out" / "rows") == "a,b\n");
  CHECK(entry_names(dir.path / "out") == std::vector<std::string>{"rows", "summary.json"});
}

TEST_CASE("a staged file is written under its staging name and renamed by commit") {
  TempDir dir("out_staged");
  const OutputDirectory out(dir.path);
  StagedFile file(out, "rows.partial", "rows");
  file.append("header\n");
  file.flush();
  CHECK(read_file(dir.path / "rows.partial") == "header\n");  // a reader sees what was flushed
  CHECK(file.bytes_flushed() == 7);
  file.append("1\n");
  CHECK(read_file(dir.path / "rows.partial") == "header\n");  // buffered
  file.commit();
  CHECK(read_file(dir.path / "rows") == "header\n1\n");
  CHECK(entry_names(dir.path) == std::vector<std::string>{"rows"});
}

TEST_CASE("a flush cut short by a full disk leaves the file at its last whole flush, never a torn record") {
  // No torn last row without newline: the disk fills 2 bytes into the second
  // flush; the file is cut back to the first.
  TempDir dir("out_torn");
  FailingFileCalls calls;
  calls.target = "rows.partial";
  calls.budget = 12;
  const OutputDirectory out(dir.path, calls);
  StagedFile file(out, "rows.partial", "rows");
  file.append("t,x\n0,1.5\n");  // 10 bytes
  file.flush();
  file.append("0.1,1.25\n");
  const std::string message = output_error([&] { file.flush(); });
  CHECK(calls.injected);
  CHECK(message == "writing '" + (dir.path / "rows.partial").string() + "' failed: No space left on device");
  CHECK(read_file(dir.path / "rows.partial") == "t,x\n0,1.5\n");
  CHECK(file.bytes_flushed() == 10);
  file.commit();  // what was whole goes under the final name
  CHECK(read_file(dir.path / "rows") == "t,x\n0,1.5\n");
}

TEST_CASE("a record handed over in pieces is cut back whole when a later piece cannot be written") {
  // A record longer than the buffer (a time series row over parts) goes to the file in pieces
  // of kFlushBytes; the disk fills in its second piece, and the file goes back to the record
  // before it, the first piece included.
  TempDir dir("out_pieces");
  FailingFileCalls calls;
  calls.target = "rows.partial";
  calls.budget = 4 + StagedFile::kFlushBytes + 100;
  const OutputDirectory out(dir.path, calls);
  StagedFile file(out, "rows.partial", "rows");
  file.append("t,x\n");
  file.flush();
  file.flush_within_record();  // an empty buffer: nothing to hand over
  const std::string piece(StagedFile::kFlushBytes, '7');
  file.append(piece);
  file.flush_within_record();  // the record's first piece
  CHECK(read_file(dir.path / "rows.partial") == std::string("t,x\n") + piece);  // a reader sees it, without its end
  CHECK(file.bytes_flushed() == 4);  // the whole records
  file.append(piece);
  CHECK_FALSE(output_error([&] { file.flush_within_record(); }).empty());
  CHECK(calls.injected);
  CHECK(read_file(dir.path / "rows.partial") == "t,x\n");
  CHECK(file.bytes_flushed() == 4);
  file.commit();
  CHECK(read_file(dir.path / "rows") == "t,x\n");
}

TEST_CASE("a commit whose fsync fails keeps the staging name and names the reason") {
  TempDir dir("out_commit_fsync");
  FailingFileCalls calls;
  calls.target = "rows.partial";
  calls.fsync_errno = ENOSPC;
  const OutputDirectory out(dir.path, calls);
  StagedFile file(out, "rows.partial", "rows");
  file.append("a\n");
  const std::string message = output_error([&] { file.commit(); });
  CHECK(message == "syncing '" + (dir.path / "rows.partial").string() + "' failed: No space left on device");
  CHECK(entry_names(dir.path) == std::vector<std::string>{"rows.partial"});
  CHECK(read_file(dir.path / "rows.partial") == "a\n");
}

TEST_CASE("two writers never share an output directory: the second is refused while the first holds it") {
  TempDir dir("out_lock");
  std::optional<OutputDirectory> first(std::in_place, dir.path);
  const std::string message = output_error([&] { OutputDirectory second(dir.path); });
  CHECK(message == "another noether run is writing into the output directory '" + dir.path.string() +
                       "': wait until it ends or choose another --out directory");
  first.reset();
  CHECK(output_error([&] { OutputDirectory again(dir.path); }).empty());
}

TEST_CASE("an output directory that cannot be made or opened is named with the reason") {
  TempDir dir("out_cannot");
  fs::create_directories(dir.path);
  std::ofstream(dir.path / "a-file") << "x";
  CHECK(output_error([&] { OutputDirectory out(dir.path / "a-file" / "out"); })
            .starts_with("cannot create the output directory '" + (dir.path / "a-file" / "out").string() + "' ("));
  // A dangling symlink is not "(File exists)": the message names the missing target.
  fs::create_symlink(dir.path / "nowhere", dir.path / "link");
  CHECK(output_error([&] { OutputDirectory out(dir.path / "link"); }) ==
        "cannot create the output directory '" + (dir.path / "link").string() + "' (a symlink to '" +
            (dir.path / "nowhere").string() + "', which does not exist): choose a writable --out directory");
  // A name in the way of a file to create (here a directory) is an error, not a silent skip.
  const OutputDirectory out(dir.path);
  fs::create_directories(dir.path / "summary.json");
  CHECK(output_error([&] { out.replace("rows", "x"); }).empty());
  CHECK(output_error([&] { out.replace("summary.json", "x"); }) ==
        "renaming '" + (dir.path / "summary.json.tmp").string() + "' to '" + (dir.path / "summary.json").string() +
            "' failed: Is a directory");
  CHECK(!fs::exists(dir.path / "summary.json.tmp"));
}
