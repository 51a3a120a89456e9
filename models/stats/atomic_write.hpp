// Crash-safe file output for run artifacts (stats.json, stats.txt, traces).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace numagpu {

// What write_file_atomically() throws: "<path>: cannot write (<strerror text>)", with the errno.
class WriteError : public std::runtime_error {
 public:
  WriteError(const std::string& path, int error);
  int error() const { return error_; }
  const std::string& reason() const { return reason_; }  // the strerror text

 private:
  int error_;
  std::string reason_;
};

// Replaces `path` with `contents` atomically: readers (and a later run) see either the old file or the
// complete new one, never a mix or a truncated file, even if this process is killed at any instant or the
// machine loses power after the call returns.
//
// How: the contents go to a new temp file in the same directory (same file system, so the final rename is
// atomic), named ".<basename>.tmp.<pid>.<n>" (hidden, so globs over results do not pick it up; unique per
// process and call, created with O_EXCL). The temp file is fully written and fsync'ed, renamed over the
// target, and the directory is fsync'ed so the rename itself is durable. A replaced target keeps its
// permission bits; a new one gets 0666 minus the umask. If `path` is a symbolic link, the link itself is
// replaced by a regular file.
//
// On failure throws WriteError("<path>: cannot write (<strerror text>)") and removes the temp file.
// Any failure up to and including the rename leaves the target untouched. The only step after the rename is
// the directory fsync: if that fails the target already holds the new complete contents but may not survive
// a power loss, and the error is still reported.
//
// A process killed mid-call can leave its temp file behind (nothing can remove it); the target is intact.
//
// Test hook: with NUMAGPU_TEST_FAIL_WRITE=N in the environment, the N-th call of the process (counting from
// 1) fails as on a full disk: half the contents reach the temp file, then ENOSPC. Output-failure tests use it
// (docs/reliability.md, "Output failures"); it costs one getenv per process.
void write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace numagpu
