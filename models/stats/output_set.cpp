#include "stats/output_set.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <stdexcept>

#include "stats/atomic_write.hpp"

namespace numagpu {

namespace fs = std::filesystem;

OutputSet::OutputSet(std::string dir, std::vector<std::string> owned, std::string last)
    : dir_(std::move(dir)), owned_(std::move(owned)), last_(std::move(last)) {}

OutputSet::~OutputSet() {
  abandon();
}

void OutputSet::abandon() {
  std::error_code ignored;
  if (!staging_.empty()) fs::remove_all(staging_, ignored);
  staging_.clear();
  if (!committed_ && created_dir_) fs::remove(dir_, ignored);  // fails, as it should, unless empty
  created_dir_ = false;
}

void OutputSet::probe() {
  std::error_code ec;
  const bool existed = fs::exists(dir_, ec);
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_ + ": cannot create output directory (" + ec.message() + ")");
  created_dir_ = !existed;
  const std::string probe_file = path(".numagpu-probe." + std::to_string(::getpid()));
  try {
    write_file_atomically(probe_file, "numagpu: can this directory take output files?\n");
  } catch (const WriteError& e) {
    if (created_dir_) fs::remove(dir_, ec);
    created_dir_ = false;
    throw std::runtime_error(dir_ + ": cannot write output files there (" + e.reason() +
                             "); found before running, nothing written");
  }
  ::unlink(probe_file.c_str());
}

std::string OutputSet::path(const std::string& name) const {
  return (fs::path(dir_) / name).string();
}

std::string OutputSet::staged(const std::string& name) {
  if (staging_.empty()) {
    // Unique among concurrent writers to one directory: the pid, a counter for other sets of this process.
    static std::atomic<unsigned long> sequence{0};
    for (int attempt = 0; staging_.empty(); ++attempt) {
      const std::string candidate = path(".numagpu-staging." + std::to_string(::getpid()) + "." +
                                         std::to_string(sequence.fetch_add(1)));
      if (::mkdir(candidate.c_str(), 0777) == 0) {
        staging_ = candidate;
      } else if (errno != EEXIST || attempt == 100) {
        throw WriteError(path(name), errno);
      }
    }
  }
  added_.push_back(name);
  return (fs::path(staging_) / name).string();
}

void OutputSet::add(const std::string& name, std::string_view contents) {
  const std::string where = staged(name);
  try {
    write_file_atomically(where, contents);
  } catch (const WriteError& e) {
    throw WriteError(path(name), e.error());
  }
}

void OutputSet::commit() {
  const auto holds = [this](const std::string& name) {
    return std::find(added_.begin(), added_.end(), name) != added_.end();
  };
  const auto remove = [this](const std::string& name) {
    if (::unlink(path(name).c_str()) != 0 && errno != ENOENT) throw WriteError(path(name), errno);
  };
  const auto move_in = [this](const std::string& name) {
    const std::string from = (fs::path(staging_) / name).string();
    if (::rename(from.c_str(), path(name).c_str()) != 0) throw WriteError(path(name), errno);
  };
  remove(last_);
  for (const std::string& name : owned_) {
    if (name != last_ && !holds(name)) remove(name);
  }
  for (const std::string& name : added_) {
    if (name != last_) move_in(name);
  }
  if (holds(last_)) move_in(last_);
  if (!staging_.empty()) ::rmdir(staging_.c_str());
  staging_.clear();
  committed_ = true;
  // The renames are durable once the directory is synced (some file systems cannot sync one: EINVAL).
  const int dir_fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) throw WriteError(dir_, errno);
  int err = 0;
  while (::fsync(dir_fd) != 0 && (err = errno) == EINTR) {
  }
  ::close(dir_fd);
  if (err != 0 && err != EINTR && err != EINVAL) throw WriteError(dir_, err);
}

}  // namespace numagpu
