#include "cli/cuda_run.hpp"

#include <cstdlib>
#include <ostream>

#include "cli/subprocess.hpp"

namespace numagpu {

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
