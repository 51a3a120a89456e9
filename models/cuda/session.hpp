// The CUDA runtime's state in one process (docs/cuda.md): the program's modules and kernels, the device
// memory, the launch configuration stack, the last error, and the simulation, which runs on a thread of its
// own and takes turns with the program (cuda/program_launches.hpp). The C entry points (cuda/cudart.cpp) are
// thin wrappers over it. One per process: SystemC elaborates once.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/run.hpp"
#include "cuda/device_memory.hpp"
#include "cuda/program_launches.hpp"
#include "ptx/execute.hpp"
#include "system/system_spec.hpp"

namespace numagpu::ptx {
class Kernel;
}

namespace numagpu::cuda {

struct PtxLaunchState;  // cuda/ptx_launch.hpp

// The run's settings from the environment (the program's command line is its own):
//   NUMAGPU_CONFIG  the system configuration file (default: the built-in paper system)
//   NUMAGPU_SET     key.path=value overrides, separated by ';' or newlines
//   NUMAGPU_OUT     the output folder (default numagpu-out)
//   NUMAGPU_QUIET   1: no summary;  NUMAGPU_BENCH 1: the --bench report
RunOptions options_from_environment(const std::string& program_name);
// NUMAGPU_SIMULATE: the display names of the only kernels to simulate, separated by ','; empty (unset): all.
std::set<std::string> simulated_kernels_from_environment();

class Session {
 public:
  // The process's session, created at its first use (the program's static initialisation registering its
  // modules): the configuration is loaded and checked then, and a bad one ends the process with one line and
  // status 2 before main() runs. Never destroyed: the simulation ends at exit (finish()).
  static Session& instance();

  // ---- registration (what clang and nvcc emit around main)
  void* register_module(const void* fatbin_wrapper);
  void register_function(void* module, const void* host_stub, const char* device_name);
  void register_variable(void* module, const void* host_variable, const char* device_name, std::size_t bytes);

  // ---- <<<grid, block, shared, stream>>>
  void push_configuration(ptx::Dim3 grid, ptx::Dim3 block, std::size_t shared_bytes, void* stream);
  int pop_configuration(ptx::Dim3* grid, ptx::Dim3* block, std::size_t* shared_bytes, void** stream);
  // Runs the kernel whose host stub is `host_stub` and returns once it has run in the simulation.
  int launch(const void* host_stub, ptx::Dim3 grid, ptx::Dim3 block, void** args, std::size_t shared_bytes);

  // ---- memory (device pointers are simulated addresses: cuda/device_memory.hpp)
  int allocate(void** pointer, std::size_t bytes);
  int release(void* pointer);
  // kind: cudaMemcpyKind's values (0 host to host, 1 host to device, 2 device to host, 3 device to device,
  // 4 default: inferred from the pointers).
  int copy(void* destination, const void* source, std::size_t bytes, int kind);
  int fill(void* destination, int value, std::size_t bytes);
  // A __device__ or __constant__ variable's device address, from its host shadow.
  int symbol(const void* host_variable, std::uint64_t* address, std::size_t* bytes);

  // ---- errors and time
  int fail(int code);  // records `code` as the last error (unless success) and returns it
  int last_error(bool reset);
  // Simulated seconds at the end of the last kernel (events read it: every launch is synchronous).
  double simulated_seconds() const;
  const SystemSpec& spec() const { return spec_; }
  const std::string& program_name() const { return program_name_; }

  // At the process's exit: the program launches nothing more; the simulation finishes and writes its
  // outputs. If the run failed, the process exits with the run's status.
  void finish();

 private:
  Session();
  struct Module {
    const void* wrapper = nullptr;
    bool loaded = false;
    int load_error = 0;
    std::string load_message;
    std::shared_ptr<const ptx::Module> parsed;
    std::vector<std::uint64_t> variable_addresses;                      // ptx::module_variables' order
    std::map<std::string, std::shared_ptr<const ptx::Kernel>> kernels;  // by entry name
  };
  struct Function {
    Module* module = nullptr;
    std::string device_name;
  };
  struct Variable {
    Module* module = nullptr;
    std::string device_name;
    std::size_t bytes = 0;
  };
  struct Configuration {
    ptx::Dim3 grid, block;
    std::size_t shared_bytes = 0;
    void* stream = nullptr;
  };
  // Parses the module's PTX and places its variables, once; returns the error it failed with.
  int load(Module& m);
  // Starts the simulation's thread if it has not started, and waits until it takes launches (true) or ended.
  bool start_simulation();
  void simulation_main();
  // A launch of a kernel NUMAGPU_SIMULATE leaves out: every CTA executed for its values only (a sink that
  // records nothing), on the program's thread, taking no simulated time. Returns the CUDA error.
  int execute_functionally(PtxLaunchState& state);

  std::string program_name_;
  RunOptions options_;
  SystemSpec spec_;
  DeviceMemory memory_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::map<const void*, Function> functions_;
  std::map<const void*, Variable> variables_;
  std::vector<Configuration> configurations_;
  std::set<std::string> simulated_kernels_;  // NUMAGPU_SIMULATE; empty: every kernel
  int last_error_ = 0;
  int sticky_error_ = 0;  // a kernel fault ends the simulation: every later call fails with it

  std::mutex mutex_;
  std::condition_variable cv_;
  std::thread simulation_;
  bool started_ = false, ended_ = false;
  int run_status_ = 0;
  // What the launches' PTX execution cost (the --bench report).
  std::uint64_t ptx_warp_instructions_ = 0;
  double ptx_seconds_ = 0;
  ProgramLaunches* launches_ = nullptr;  // owned by the run's workload
};

}  // namespace numagpu::cuda
