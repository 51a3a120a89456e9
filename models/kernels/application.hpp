// Applications: C++ host programs that own their arrays and launch kernels in a host loop, as the real
// programs do (iterations, phases, BFS until the frontier is empty). docs/kernels.md, "Applications".
//
// An application is one file, models/apps/<suite>/<app>.cpp, defining `ApplicationEntry app_<suite>_<app>()`
// (dashes and slashes of the path become underscores; cmake/KernelLibrary.cmake lists the files). Its
// constructor reads its arguments and input and declares its arrays (placed as workload allocations, so every
// placement policy applies to them); `host()` is the host program. Each `launch()` in it returns once the
// kernel has run in the simulation (every CTA executed, the kernel boundary's coherence actions done), so the
// host's decisions read the data the kernels computed. CTAs still execute lazily, one at a time as SMs take
// them.
//
// The host program runs on a thread of its own that takes turns with the simulation (exactly one of the two
// runs at any time), so a run is as deterministic as one without applications.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"
#include "kernels/metis_graph.hpp"

namespace numagpu::kernels {

class Application {
 public:
  Application(const Args& args, std::string input);
  virtual ~Application() = default;
  Application(const Application&) = delete;
  Application& operator=(const Application&) = delete;

  // The host program. Runs when the simulation starts (not when the configuration is checked).
  virtual void host() = 0;

  const std::vector<runtime::Allocation>& allocations() const { return space_.allocations(); }
  std::uint64_t end_address() const { return space_.end(); }
  const std::string& input() const { return input_; }
  // What launch() does: set by the runner (ApplicationRunner), or by a test.
  using Launcher = std::function<void(const std::string& name, std::unique_ptr<Kernel> kernel)>;
  void set_launcher(Launcher l) { launcher_ = std::move(l); }

  // The application's own bound on its launches (0: none, its arguments fix them), and what it stands for:
  // a host loop that runs until the data says stop (BFS, SSSP, MST) declares the most launches a correct
  // run can take on its input, so that one that does not converge ends (checks.max_launches).
  std::uint64_t launch_bound() const { return launch_bound_; }
  const std::string& launch_bound_reason() const { return launch_bound_reason_; }

  // The contents of a data-carrying array by name, for tests (null if none or of another type).
  template <class T>
  const std::vector<T>* contents(const std::string& name) const {
    return space_.contents<T>(name);
  }

 protected:
  // An application's arrays are members, each declared, named and placed in one line, placed in the order
  // they are declared (AddressSpace::place): `Array<float> rank_ = array<float>("rank", n_);` for one whose
  // values nothing reads (its addresses only), `Data<std::int32_t> col_{this, "col", edges};` for one whose
  // values the host program and the kernels share (Data below). Their sizes come from members declared
  // before them.
  template <class T>
  Array<T> array(const std::string& name, std::uint64_t count, std::uint64_t rows = 0,
                 std::uint64_t cols = 0) {
    return space_.place<T>(name, count, rows, cols);
  }
  // An array that carries values (a graph, a mask, a flag: what steers branches and addresses, or what the
  // host reads back), which it owns: `values`, `count` elements of `initial` once placed (the constructor
  // fills them in). `rows`/`cols` give a 2-D shape, as for array(). Not copyable: the array points at its
  // own values.
  template <class T>
  class Data : public Array<T> {
   public:
    Data(Application* app, const std::string& name, std::uint64_t count, T initial = T(),
         std::uint64_t rows = 0, std::uint64_t cols = 0) {
      Array<T>::operator=(app->space_.place<T>(name, count, rows, cols, &values));
      values.assign(count, initial);  // after placing, which refuses a count beyond the address space's cap
    }
    Data(const Data&) = delete;
    Data& operator=(const Data&) = delete;
    std::vector<T> values;
  };
  // A 1-D launch of one thread per item: ceil(items / block) CTAs of `block` threads (the shape of the
  // per-vertex, per-element kernels of BFS, SSSP, MST, LULESH).
  static Launch one_thread_per_item(std::int64_t items, std::int64_t block, unsigned regs) {
    Launch l;
    l.grid = {static_cast<std::uint32_t>((items + block - 1) / block), 1, 1};
    l.block = {static_cast<std::uint32_t>(block), 1, 1};
    l.regs_per_thread = regs;
    return l;
  }
  // `a` as a binding for a library kernel's array.
  template <class T>
  static BoundArray bind(const Array<T>& a) {
    return BoundArray{a.base, a.bytes(), sizeof(T), a.data};
  }
  // The library kernel `name` with `args`, every one of its arrays bound to the application's (a kernel
  // array left unbound is an error: it would have no place in the application's address space).
  std::unique_ptr<Kernel> library_kernel(const std::string& name, const std::string& args, Bindings bindings);
  // Declares the launch bound (above), from the constructor.
  void set_launch_bound(std::uint64_t launches, std::string reason) {
    launch_bound_ = launches;
    launch_bound_reason_ = std::move(reason);
  }
  // Runs a kernel (blocks until it has run in the simulation). `name` names it in the statistics.
  void launch(const std::string& name, std::unique_ptr<Kernel> kernel);
  // Runs a kernel of the application's own, given by its launch (its body captures the app's arrays).
  void launch(const std::string& name, Launch launch);

 private:
  AddressSpace space_;
  std::string input_;
  Launcher launcher_;
  std::uint64_t launch_bound_ = 0;
  std::string launch_bound_reason_;
};

struct ApplicationEntry {
  std::string name;           // suite/app
  std::string source;         // what it stands for, what it was learned from, its reference input
  std::vector<ArgSpec> args;  // integer arguments, as a kernel's
  std::string default_input;  // the file read when `input` is not given ("" : none)
  std::function<std::unique_ptr<Application>(const Args&, const std::string& input)> make;
};

// The METIS graph at `path` extruded to `layers` layers (metis_graph.hpp), for an application's constructor.
// Throws KernelError "input <file>:<line>: ..." when the file is missing or bad, or has no edge.
// `limits`: what the application accepts beyond the format (an edge weight that would overflow its sums).
CsrGraph load_graph(const std::string& path, std::uint32_t layers, const GraphLimits& limits = {});

// Every application, by name.
const std::map<std::string, ApplicationEntry>& apps();
// The application `name` with `args` and `input` ("" : its default input), its arrays from `base` on.
// Throws KernelError (unknown name, bad argument, unreadable or bad input).
std::unique_ptr<Application> make_app(const std::string& name, const std::string& args,
                                      const std::string& input, std::uint64_t base);

// Runs an application's host program and hands out its launches one at a time, as programs the SM takes
// (a KernelSequence for the dispatcher). The host thread runs only inside next().
class ApplicationRunner : public KernelSequence {
 public:
  // `check` is called on every launch's program before it is handed out (it throws to refuse it, e.g. a CTA
  // that would not fit on an SM). `max_launches`: the most launches handed out (checks.max_launches; 0:
  // the application's own launch_bound(), itself 0 for none); the launch after them is not run: the host
  // program is unwound, next() returns null and cut_short() says why.
  ApplicationRunner(std::string name, std::unique_ptr<Application> app, unsigned line_bytes,
                    std::function<void(const KernelProgram&)> check = {}, const Latencies& latencies = {},
                    std::uint64_t max_launches = 0);
  ~ApplicationRunner() override;
  ApplicationRunner(const ApplicationRunner&) = delete;
  ApplicationRunner& operator=(const ApplicationRunner&) = delete;

  // Resumes the host program until it launches a kernel (returned; valid until the call after next) or
  // returns (null). Rethrows what the host program threw.
  const KernelProgram* next() override;
  // The bounds every launch's CTA recordings answer to (CppKernelProgram::bound_by).
  void bound_by(std::shared_ptr<RecordBounds> bounds) { bounds_ = std::move(bounds); }
  double generation_seconds() const override;
  bool is_application() const override { return true; }
  const std::string& name() const override { return name_; }
  const Application& app() const { return *app_; }
  // The name the current launch was given in launch().
  const std::string& launch_name() const override { return launch_name_; }
  std::string cut_short() const override { return cut_short_; }

 private:
  struct Cancelled {};
  struct BoundReached {};
  void host_main();
  void host_launch(const std::string& name, std::unique_ptr<Kernel> kernel);

  std::string name_;
  std::unique_ptr<Application> app_;
  unsigned line_bytes_;
  std::function<void(const KernelProgram&)> check_;
  Latencies latencies_;
  std::unique_ptr<CppKernelProgram> current_, previous_;
  std::string launch_name_;
  double retired_seconds_ = 0;
  std::uint64_t max_launches_ = 0, launches_ = 0;  // launches_: asked for by the host program (host thread)
  std::string max_launches_reason_, cut_short_;
  // The hand-over: `host_turn_` says who runs; the host thread waits while it is false, next() while true.
  std::mutex mutex_;
  std::condition_variable cv_;
  bool host_turn_ = false, started_ = false, finished_ = false, cancelled_ = false;
  std::unique_ptr<CppKernelProgram> handed_;
  std::string handed_name_;
  std::exception_ptr error_;
  std::thread thread_;
  std::shared_ptr<RecordBounds> bounds_;
};

}  // namespace numagpu::kernels
