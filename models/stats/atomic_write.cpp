#include "stats/atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

namespace numagpu {

WriteError::WriteError(const std::string& path, int error)
    : std::runtime_error(path + ": cannot write (" + std::generic_category().message(error) + ")"),
      error_(error),
      reason_(std::generic_category().message(error)) {}

namespace {

[[noreturn]] void fail(const std::string& path, int err) {
  throw WriteError(path, err);
}

// The test hook NUMAGPU_TEST_FAIL_WRITE=N (atomic_write.hpp): true for the N-th call of the process.
bool inject_failure() {
  static const long nth = [] {
    const char* value = std::getenv("NUMAGPU_TEST_FAIL_WRITE");
    return value != nullptr ? std::atol(value) : 0L;
  }();
  static std::atomic<long> calls{0};
  return nth > 0 && calls.fetch_add(1) + 1 == nth;
}

// Closes the descriptor and unlinks the temp file unless released: every early exit cleans up.
class TempFile {
 public:
  TempFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!name_.empty()) ::unlink(name_.c_str());
  }

  int fd() const { return fd_; }
  const std::string& name() const { return name_; }

  // close() can report a deferred write error (NFS, quotas), so its result matters; returns errno or 0.
  int close() {
    const int rc = ::close(fd_);
    fd_ = -1;  // the descriptor is gone even when close fails: never retry
    return rc == 0 ? 0 : errno;
  }
  // After a successful rename the name belongs to the target: do not unlink it.
  void keep() { name_.clear(); }

 private:
  int fd_;
  std::string name_;
};

// Returns 0 or the errno of the failing write.
int write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

int fsync_retrying(int fd) {
  while (::fsync(fd) != 0) {
    if (errno != EINTR) return errno;
  }
  return 0;
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view contents) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty()) fail(path, EISDIR);

  // Unique among concurrent writers: pid for other processes, a counter for other threads and calls; O_EXCL
  // settles the rest (a stale temp of a killed process that had the same pid), by trying the next number.
  static std::atomic<unsigned long> sequence{0};
  const std::string prefix = (slash == std::string::npos ? "" : path.substr(0, slash + 1)) + "." + base +
                             ".tmp." + std::to_string(::getpid()) + ".";
  int fd = -1;
  std::string temp;
  for (int attempt = 0; fd < 0; ++attempt) {
    temp = prefix + std::to_string(sequence.fetch_add(1));
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && (errno != EEXIST || attempt == 100)) fail(path, errno);
  }
  TempFile file(fd, temp);

  // Keep the permissions of the file being replaced; a new file keeps what open() gave it under the umask.
  struct stat existing;
  if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) {
    if (::fchmod(file.fd(), existing.st_mode & 07777) != 0) fail(path, errno);
  }

  if (inject_failure()) {
    (void)write_all(file.fd(), contents.substr(0, contents.size() / 2));
    fail(path, ENOSPC);
  }
  if (const int err = write_all(file.fd(), contents)) fail(path, err);
  // Data must be on disk before the rename is: otherwise a crash could persist the rename of an empty file.
  if (const int err = fsync_retrying(file.fd())) fail(path, err);
  if (const int err = file.close()) fail(path, err);
  if (::rename(file.name().c_str(), path.c_str()) != 0) fail(path, errno);
  file.keep();

  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) fail(path, errno);
  const int err = fsync_retrying(dir_fd);
  ::close(dir_fd);
  // Some file systems cannot fsync a directory (EINVAL): their renames are as durable as they get.
  if (err != 0 && err != EINVAL) fail(path, err);
}

}  // namespace numagpu
