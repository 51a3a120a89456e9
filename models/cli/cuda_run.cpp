#include "cli/cuda_run.hpp"

#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "cli/subprocess.hpp"

namespace numagpu {

namespace {

// The directory holding libcudart.so.13, numagpu's runtime under NVIDIA's name (models/cuda/CMakeLists.txt),
// next to this numagpu program: installed, or in the build tree. Empty if neither is there.
std::string cudart_compat_dir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  for (const char* relative : {NUMAGPU_CUDART_COMPAT_INSTALLED, NUMAGPU_CUDART_COMPAT_BUILD}) {
    const fs::path dir = fs::weakly_canonical(self.parent_path() / relative, ec);
    if (!ec && fs::exists(dir / "libcudart.so.13", ec)) return dir.string();
  }
  return {};
}

}  // namespace

int cuda_run_command(const RunOptions& options, const std::string& program,
                     const std::vector<std::string>& args, std::ostream& err) {
  if (options.workload_file) {
    err << "numagpu: error: --workload: a CUDA program's kernels are its own launches; leave --workload out "
           "with --cuda\n";
    return kExitBadInput;
  }
  // The environment the runtime reads, replacing whatever the caller's held.
  const auto set = [](const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); };
  if (options.config_file)
    set("NUMAGPU_CONFIG", *options.config_file);
  else
    ::unsetenv("NUMAGPU_CONFIG");
  std::string sets;
  for (const std::string& s : options.sets)
    sets += s + "\n";
  set("NUMAGPU_SET", sets);
  set("NUMAGPU_OUT", options.out_dir);
  set("NUMAGPU_QUIET", options.quiet ? "1" : "0");
  set("NUMAGPU_BENCH", options.bench ? "1" : "0");
  // A program built by nvcc (-cudart shared) needs libcudart.so.13: the compat directory first on the
  // loader's path gives it numagpu's runtime in place of NVIDIA's (a clang-built program finds
  // libnumagpu_cudart.so by its own run path, and is not affected).
  if (const std::string compat = cudart_compat_dir(); !compat.empty()) {
    const char* path = std::getenv("LD_LIBRARY_PATH");
    set("LD_LIBRARY_PATH", path && *path ? compat + ":" + path : compat);
  }
  subprocess::Command command;
  command.argv.push_back(program);
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  // A program named without a '/' is the one in the current folder, as a user who wrote `./saxpy` meant.
  command.program = program.find('/') == std::string::npos ? "./" + program : program;
  try {
    subprocess::start(command);
    for (;;) {
      const auto ended = subprocess::wait_any(true);
      if (ended) return ended->second.shell_code();
    }
  } catch (const subprocess::SpawnError& e) {
    err << "numagpu: error: --cuda " << program << ": " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace numagpu
