#include "cuda/session.hpp"

#include <cxxabi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "cli/bench_report.hpp"
#include "cuda/errors.hpp"
#include "cuda/fatbin.hpp"
#include "cuda/ptx_launch.hpp"
#include "ptx/kernel.hpp"
#include "system/system_config.hpp"

namespace numagpu::cuda {

namespace {

// A name YAML and the statistics take as it is: the program's file name with anything but letters, digits,
// '_', '-' and '.' replaced.
std::string plain_name(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
  return name.empty() ? std::string("program") : name;
}

// "saxpy" from "_Z5saxpyifPKfPf": the demangled name up to its parameters (the statistics' kernel name).
std::string kernel_display_name(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !d) return mangled;
  std::string s(d);
  std::free(d);
  const auto paren = s.find('(');
  if (paren != std::string::npos) s.resize(paren);
  const auto space = s.rfind(' ', s.find('<'));  // a template's return type comes first
  if (space != std::string::npos && s.find('<') != std::string::npos) s = s.substr(space + 1);
  return s;
}

// A KernelSequence that forwards to the session's ProgramLaunches, which outlives the run's workload (the
// program may still be waiting in a launch when the run ends).
class SharedLaunches : public KernelSequence {
 public:
  explicit SharedLaunches(std::shared_ptr<ProgramLaunches> l) : l_(std::move(l)) {}
  const KernelProgram* next() override { return l_->next(); }
  double generation_seconds() const override { return l_->generation_seconds(); }
  bool is_application() const override { return true; }
  const std::string& name() const override { return l_->name(); }
  const std::string& launch_name() const override { return l_->launch_name(); }

 private:
  std::shared_ptr<ProgramLaunches> l_;
};

std::shared_ptr<ProgramLaunches>& shared_launches() {
  static auto* p = new std::shared_ptr<ProgramLaunches>();
  return *p;
}

// The sink of a launch executed for its values only: it records nothing, and every result is ready at once.
class NoWarpSink : public ptx::WarpSink {
 public:
  std::uint32_t compute(unsigned, InstrClass, std::uint32_t, std::uint32_t, unsigned) override { return 0; }
  void global_access(unsigned, Step::Kind, std::uint32_t, const std::uint64_t*, unsigned,
                     std::uint32_t) override {}
  std::uint32_t shared_access(unsigned, std::uint32_t, const std::uint64_t*, unsigned,
                              std::uint32_t) override {
    return 0;
  }
  std::uint32_t constant_access(unsigned, std::uint32_t, const std::uint64_t*, std::uint32_t) override {
    return 0;
  }
  void barrier(unsigned, std::uint32_t) override {}
};

int error_of(ptx::ExecutionError::Kind kind) {
  switch (kind) {
    case ptx::ExecutionError::Kind::kOutOfBounds:
      return kIllegalAddress;
    case ptx::ExecutionError::Kind::kMisaligned:
      return kMisalignedAddress;
    case ptx::ExecutionError::Kind::kTrap:
      return kAssert;
    case ptx::ExecutionError::Kind::kBarrierDiverged:
    case ptx::ExecutionError::Kind::kUnsupported:
      return kLaunchFailure;
  }
  return kLaunchFailure;
}

}  // namespace

RunOptions options_from_environment(const std::string& program_name) {
  RunOptions o;
  if (const char* c = std::getenv("NUMAGPU_CONFIG"); c && *c) o.config_file = c;
  if (const char* s = std::getenv("NUMAGPU_SET"); s && *s) {
    std::string item;
    for (const char* p = s;; ++p) {
      if (*p == ';' || *p == '\n' || *p == '\0') {
        if (!item.empty()) o.sets.push_back(item);
        item.clear();
        if (*p == '\0') break;
      } else {
        item += *p;
      }
    }
  }
  if (const char* d = std::getenv("NUMAGPU_OUT"); d && *d) o.out_dir = d;
  const auto flag = [](const char* name) {
    const char* v = std::getenv(name);
    return v && std::strcmp(v, "1") == 0;
  };
  o.quiet = flag("NUMAGPU_QUIET");
  o.bench = flag("NUMAGPU_BENCH");
  const std::string name = plain_name(program_name);
  o.workload_yaml =
      "workload:\n  name: " + name + "\n  kernels:\n    - name: " + name + "\n      cuda: " + name + "\n";
  return o;
}

std::set<std::string> simulated_kernels_from_environment() {
  std::set<std::string> names;
  const char* s = std::getenv("NUMAGPU_SIMULATE");
  if (!s) return names;
  std::string item;
  for (const char* p = s;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!item.empty()) names.insert(item);
      item.clear();
      if (*p == '\0') break;
    } else if (*p != ' ') {
      item += *p;
    }
  }
  return names;
}

Session& Session::instance() {
  static Session* session = [] {
    auto* s = new Session();
    std::atexit([] { Session::instance().finish(); });
    return s;
  }();
  return *session;
}

Session::Session() : program_name_(plain_name(program_invocation_short_name)) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);  // the program's output is its own
  options_ = options_from_environment(program_name_);
  simulated_kernels_ = simulated_kernels_from_environment();
  try {
    const config::Config cfg = load_configuration(options_);
    spec_ = to_system_spec(cfg);
  } catch (const std::exception& e) {
    std::cerr << "numagpu: error: " << e.what() << "\n";
    std::fflush(stdout);
    std::_Exit(kExitBadInput);
  }
}

// ---- registration ------------------------------------------------------------------------------------

void* Session::register_module(const void* fatbin_wrapper) {
  modules_.push_back(std::make_unique<Module>());
  modules_.back()->wrapper = fatbin_wrapper;
  return modules_.back().get();
}

void Session::register_function(void* module, const void* host_stub, const char* device_name) {
  functions_[host_stub] = Function{static_cast<Module*>(module), device_name ? device_name : ""};
}

void Session::register_variable(void* module, const void* host_variable, const char* device_name,
                                std::size_t bytes) {
  variables_[host_variable] = Variable{static_cast<Module*>(module), device_name ? device_name : "", bytes};
}

int Session::load(Module& m) {
  if (m.loaded) return m.load_error;
  m.loaded = true;
  std::vector<PtxImage> images;
  try {
    images = ptx_from_registered_binary(m.wrapper);
  } catch (const FatbinError& e) {
    m.load_message = e.what();
    return m.load_error = kNoKernelImageForDevice;
  }
  if (images.empty()) {
    m.load_message =
        "the program's device code holds no PTX (numagpu runs PTX: build with numagpu-cc, or nvcc "
        "with -arch=compute_75 -code=compute_75)";
    return m.load_error = kNoKernelImageForDevice;
  }
  const std::string& text = images.front().text;
  try {
    m.parsed = ptx::parse_module(text, program_name_ + ".ptx");
    for (const ptx::VariableInfo& v : ptx::module_variables(*m.parsed)) {
      std::uint64_t at = 0;
      if (v.space != ptx::VariableInfo::Space::kShared) {
        at = memory_.allocate(std::max<std::uint64_t>(v.bytes, 1), v.name);
        if (at == 0) return m.load_error = kMemoryAllocation;
        if (!v.initial.empty()) std::memcpy(reinterpret_cast<void*>(at), v.initial.data(), v.initial.size());
      }
      m.variable_addresses.push_back(at);
    }
  } catch (const ptx::ParseError& e) {
    m.load_message = e.what();
    return m.load_error = kInvalidPtx;
  }
  return 0;
}

// ---- launches ----------------------------------------------------------------------------------------

void Session::push_configuration(ptx::Dim3 grid, ptx::Dim3 block, std::size_t shared_bytes, void* stream) {
  configurations_.push_back(Configuration{grid, block, shared_bytes, stream});
}

int Session::pop_configuration(ptx::Dim3* grid, ptx::Dim3* block, std::size_t* shared_bytes, void** stream) {
  if (configurations_.empty()) return fail(kInvalidConfiguration);
  const Configuration c = configurations_.back();
  configurations_.pop_back();
  if (grid) *grid = c.grid;
  if (block) *block = c.block;
  if (shared_bytes) *shared_bytes = c.shared_bytes;
  if (stream) *stream = c.stream;
  return kSuccess;
}

int Session::launch(const void* host_stub, ptx::Dim3 grid, ptx::Dim3 block, void** args,
                    std::size_t shared_bytes) {
  if (sticky_error_) return fail(sticky_error_);
  const auto f = functions_.find(host_stub);
  if (f == functions_.end()) return fail(kInvalidDeviceFunction);
  Module& m = *f->second.module;
  if (const int error = load(m)) {
    std::cerr << "numagpu: error: " << m.load_message << "\n";
    return fail(error);
  }
  const std::string& entry = f->second.device_name;
  std::shared_ptr<const ptx::Kernel>& kernel = m.kernels[entry];
  if (!kernel) {
    try {
      kernel = std::make_shared<const ptx::Kernel>(m.parsed, entry);
    } catch (const ptx::ParseError& e) {
      std::cerr << "numagpu: error: " << e.what() << "\n";
      m.kernels.erase(entry);
      return fail(kInvalidPtx);
    }
  }
  const std::uint64_t threads = block.count();
  if (grid.count() == 0 || threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 ||
      block.z > 64 || grid.y > 65535 || grid.z > 65535)
    return fail(kInvalidConfiguration);
  const std::string name = kernel_display_name(entry);
  const std::string why =
      spec_.sm.misfit({static_cast<std::uint32_t>((threads + 31) / 32), kernel->registers_per_thread(),
                       kernel->static_shared_bytes() + shared_bytes});
  if (!why.empty()) {
    std::cerr << "numagpu: kernel '" << name << "' cannot launch: " << why << "\n";
    return fail(kLaunchOutOfResources);
  }
  auto state = std::make_shared<PtxLaunchState>();
  state->kernel = kernel;
  state->spec.grid = grid;
  state->spec.block = block;
  state->spec.dynamic_shared_bytes = shared_bytes;
  state->memory = &memory_;
  state->variable_addresses = m.variable_addresses;
  std::size_t param_bytes = 0;
  for (const ptx::ParamInfo& p : kernel->params())
    param_bytes = std::max<std::size_t>(param_bytes, p.offset + p.bytes);
  state->spec.params.assign(param_bytes, 0);
  for (std::size_t i = 0; i < kernel->params().size(); ++i) {
    const ptx::ParamInfo& p = kernel->params()[i];
    if (!args || !args[i]) return fail(kInvalidValue);
    std::memcpy(state->spec.params.data() + p.offset, args[i], p.bytes);
  }
  std::uint64_t local = 0;
  if (const std::uint64_t per_thread = kernel->local_bytes_per_thread()) {
    local = memory_.allocate(per_thread * threads * grid.count(), name + ".local");
    if (local == 0) return fail(kMemoryAllocation);
    state->spec.local_base = local;
  }
  if (!simulated_kernels_.empty() && !simulated_kernels_.count(name)) {
    const int error = execute_functionally(*state);
    if (local) memory_.free(local);
    return error;
  }
  if (!start_simulation()) return fail(sticky_error_ ? sticky_error_ : kLaunchFailure);
  const bool ran = launches_->launch(name, std::make_unique<PtxLaunch>(state));
  if (local) memory_.free(local);
  ptx_warp_instructions_ += state->cost.warp_instructions;
  ptx_seconds_ += state->execute_seconds;
  if (state->failed) sticky_error_ = error_of(state->failure);
  if (!ran && !sticky_error_) sticky_error_ = kLaunchFailure;  // the run ended (an error it printed)
  return sticky_error_ ? fail(sticky_error_) : kSuccess;
}

int Session::execute_functionally(PtxLaunchState& state) {
  NoWarpSink sink;
  const auto begin = std::chrono::steady_clock::now();
  const ptx::Dim3 grid = state.spec.grid;
  try {
    for (std::uint32_t z = 0; z < grid.z; ++z)
      for (std::uint32_t y = 0; y < grid.y; ++y)
        for (std::uint32_t x = 0; x < grid.x; ++x)
          state.cost.warp_instructions +=
              state.kernel->execute_cta(state.spec, {x, y, z}, *state.memory, sink, state.variable_addresses)
                  .warp_instructions;
  } catch (const ptx::ExecutionError& e) {
    std::cerr << "numagpu: error: " << e.what() << " (not simulated: NUMAGPU_SIMULATE)\n";
    sticky_error_ = error_of(e.kind);
  }
  ptx_warp_instructions_ += state.cost.warp_instructions;
  ptx_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return sticky_error_ ? fail(sticky_error_) : kSuccess;
}

bool Session::start_simulation() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!started_) {
    started_ = true;
    simulation_ = std::thread([this] { simulation_main(); });
  }
  cv_.wait(lock, [this] { return launches_ != nullptr || ended_; });
  return launches_ != nullptr && !ended_;
}

void Session::simulation_main() {
  RunOptions o = options_;
  o.cuda_program = [this](const KernelSpec& k,
                          const HostLaunchContext& context) -> std::unique_ptr<KernelSequence> {
    auto l = std::make_shared<ProgramLaunches>(k.name, context);
    shared_launches() = l;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      launches_ = l.get();
    }
    cv_.notify_all();
    return std::make_unique<SharedLaunches>(l);
  };
  o.bench_extra = [this](BenchReport& b) {
    b.ptx_warp_instructions = ptx_warp_instructions_;
    b.ptx_seconds = ptx_seconds_;
    b.host_program_seconds = launches_ ? launches_->waited_seconds() : 0.0;
  };
  const int status = run_command(o, std::cout, std::cerr);
  std::cout.flush();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
    run_status_ = status;
  }
  if (launches_) launches_->simulation_ended();
  cv_.notify_all();
}

void Session::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_) {  // nothing to simulate: no outputs (a run of no kernel would describe nothing)
      if (!simulated_kernels_.empty()) {  // said even when quiet: most likely a misspelt name
        std::string names;
        for (const std::string& n : simulated_kernels_)
          names += (names.empty() ? "" : ",") + n;
        std::cerr << "numagpu: " << program_name_ << " launched no kernel NUMAGPU_SIMULATE names (" << names
                  << "): nothing simulated, no outputs written\n";
      } else if (!options_.quiet) {
        std::cerr << "numagpu: " << program_name_
                  << " launched no kernel: nothing simulated, no outputs written\n";
      }
      return;
    }
  }
  const bool launched = start_simulation();
  if (launched) launches_->finish();
  if (simulation_.joinable()) simulation_.join();
  if (run_status_ != 0) {
    std::cout.flush();
    std::fflush(nullptr);
    std::_Exit(run_status_);
  }
}

// ---- memory ------------------------------------------------------------------------------------------

int Session::allocate(void** pointer, std::size_t bytes) {
  if (!pointer) return fail(kInvalidValue);
  if (bytes == 0) {
    *pointer = nullptr;
    return kSuccess;
  }
  const std::uint64_t at = memory_.allocate(bytes, "allocation");
  if (at == 0) return fail(kMemoryAllocation);
  *pointer = reinterpret_cast<void*>(at);
  return kSuccess;
}

int Session::release(void* pointer) {
  if (!pointer) return kSuccess;
  return memory_.free(reinterpret_cast<std::uint64_t>(pointer)) ? kSuccess : fail(kInvalidDevicePointer);
}

int Session::copy(void* destination, const void* source, std::size_t bytes, int kind) {
  if (sticky_error_) return fail(sticky_error_);
  if (bytes == 0) return kSuccess;
  if (!destination || !source || kind < 0 || kind > 4)
    return fail(kind < 0 || kind > 4 ? kInvalidMemcpyDirection : kInvalidValue);
  const auto on_device = [this, bytes](const void* p) {
    return memory_.block_of(reinterpret_cast<std::uint64_t>(p), bytes) != nullptr;
  };
  const bool to_device = kind == 1 || kind == 3, from_device = kind == 2 || kind == 3;
  if ((to_device && !on_device(destination)) || (from_device && !on_device(source)))
    return fail(kInvalidValue);
  std::memmove(destination, source, bytes);
  return kSuccess;
}

int Session::fill(void* destination, int value, std::size_t bytes) {
  if (sticky_error_) return fail(sticky_error_);
  if (bytes == 0) return kSuccess;
  if (!memory_.block_of(reinterpret_cast<std::uint64_t>(destination), bytes)) return fail(kInvalidValue);
  std::memset(destination, value, bytes);
  return kSuccess;
}

int Session::symbol(const void* host_variable, std::uint64_t* address, std::size_t* bytes) {
  const auto v = variables_.find(host_variable);
  if (v == variables_.end()) return fail(kInvalidSymbol);
  Module& m = *v->second.module;
  if (const int error = load(m)) {
    std::cerr << "numagpu: error: " << m.load_message << "\n";
    return fail(error);
  }
  const auto& vars = ptx::module_variables(*m.parsed);
  for (std::size_t i = 0; i < vars.size(); ++i) {
    if (vars[i].name != v->second.device_name) continue;
    if (address) *address = m.variable_addresses[i];
    if (bytes) *bytes = vars[i].bytes;
    return kSuccess;
  }
  return fail(kInvalidSymbol);
}

// ---- errors and time ---------------------------------------------------------------------------------

int Session::fail(int code) {
  if (code != kSuccess) last_error_ = code;
  return code;
}

int Session::last_error(bool reset) {
  const int e = sticky_error_ ? sticky_error_ : last_error_;
  if (reset) last_error_ = kSuccess;
  return e;
}

double Session::simulated_seconds() const {
  return launches_ ? launches_->seconds_at_last_end() : 0.0;
}

}  // namespace numagpu::cuda
