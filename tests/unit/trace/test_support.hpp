// Helpers shared by the trace tests: data paths, a scratch directory, compressed copies made at run time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "trace/trace.hpp"

namespace numagpu::trace::testing {

// A file of tests/data/trace.
std::string data_path(const std::string& name);

// A fresh directory under the system temp directory, removed with everything in it at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  // Writes `contents` to `name` in the directory; returns the full path.
  std::string write(const std::string& name, std::string_view contents) const;

 private:
  std::string dir_;
};

std::string read_file(const std::string& path);
std::string gzip_bytes(std::string_view data);
std::string xz_bytes(std::string_view data);

// Every block of `reader`, each read into a fresh ThreadBlock.
std::vector<ThreadBlock> read_all(KernelTraceReader& reader);

// The message of the TraceError `f` throws, or "no error".
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const TraceError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace numagpu::trace::testing
