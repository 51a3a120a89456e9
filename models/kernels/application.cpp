#include "kernels/application.hpp"

#include <chrono>
#include <utility>

namespace numagpu::kernels {

#define NUMAGPU_APP(id) ApplicationEntry id();
#include "kernels/app_list.inc"
#undef NUMAGPU_APP

namespace {

// A kernel given by its launch alone (an application's own kernel: its body captures the app's arrays).
class LaunchKernel : public Kernel {
 public:
  LaunchKernel(const Args& a, Launch l) : Kernel(a), launch_(std::move(l)) {}
  Launch launch() override { return launch_; }

 private:
  Launch launch_;
};

}  // namespace

const std::map<std::string, ApplicationEntry>& apps() {
  static const std::map<std::string, ApplicationEntry> entries = [] {
    std::map<std::string, ApplicationEntry> m;
#define NUMAGPU_APP(id) id,
    for (ApplicationEntry (*entry)() : std::initializer_list<ApplicationEntry (*)()>{
#include "kernels/app_list.inc"
         }) {
#undef NUMAGPU_APP
      ApplicationEntry e = entry();
      m.emplace(e.name, std::move(e));
    }
    return m;
  }();
  return entries;
}

Application::Application(const Args& args, std::string input)
    : space_(args.base()), input_(std::move(input)) {}

std::unique_ptr<Kernel> Application::library_kernel(const std::string& name, const std::string& args,
                                                    Bindings bindings) {
  std::unique_ptr<Kernel> k = make_kernel(name, args, space_.end(), std::move(bindings));
  if (!k->allocations().empty())
    throw std::logic_error("application kernel " + name + ": array '" + k->allocations().front().name +
                           "' is not bound to one of the application's");
  return k;
}

void Application::launch(const std::string& name, std::unique_ptr<Kernel> kernel) {
  if (!launcher_) throw std::logic_error("application launches a kernel outside a runner");
  launcher_(name, std::move(kernel));
}

void Application::launch(const std::string& name, Launch l) {
  launch(name, std::make_unique<LaunchKernel>(Args({}, "", space_.end()), std::move(l)));
}

CsrGraph load_graph(const std::string& path, std::uint32_t layers, const GraphLimits& limits) {
  CsrGraph g;
  try {
    g = extrude(read_metis_graph(path, limits), layers);
  } catch (const GraphError& e) {
    std::string what = e.what();
    if (what.find(": cannot be read") != std::string::npos)
      what += " (the METIS graphs come with Debian's libmetis-doc, which scripts/setup.sh installs)";
    throw KernelError("input " + what);
  }
  // An application walks edges: without any, its edge arrays would be empty (no place in memory).
  if (g.edges() == 0)
    throw KernelError("input " + path + ": a graph without edges (" + std::to_string(g.vertices) +
                      (g.vertices == 1 ? " vertex" : " vertices") + "); the application needs at least one");
  return g;
}

std::unique_ptr<Application> make_app(const std::string& name, const std::string& args,
                                      const std::string& input, std::uint64_t base) {
  const auto it = apps().find(name);
  if (it == apps().end()) {
    std::string known;
    for (const auto& [n, e] : apps())
      known += (known.empty() ? "" : ", ") + n;
    throw KernelError("unknown application '" + name + "' (there are: " + known +
                      "; numagpu kernels lists them)");
  }
  const ApplicationEntry& e = it->second;
  if (e.default_input.empty() && !input.empty())
    throw KernelError("input " + input + ": " + name + " reads no input file (its arguments say its size)");
  return e.make(Args(e.args, args, base), input.empty() ? e.default_input : input);
}

ApplicationRunner::ApplicationRunner(std::string name, std::unique_ptr<Application> app, unsigned line_bytes,
                                     std::function<void(const KernelProgram&)> check,
                                     const Latencies& latencies, std::uint64_t max_launches)
    : name_(std::move(name)),
      app_(std::move(app)),
      line_bytes_(line_bytes),
      check_(std::move(check)),
      latencies_(latencies),
      max_launches_(max_launches ? max_launches : app_->launch_bound()),
      max_launches_reason_(max_launches
                               ? "checks.max_launches)"
                               : "the application's own bound, " + app_->launch_bound_reason() +
                                     "; checks.max_launches sets another): its loop did not converge") {
  app_->set_launcher(
      [this](const std::string& n, std::unique_ptr<Kernel> k) { host_launch(n, std::move(k)); });
}

ApplicationRunner::~ApplicationRunner() {
  if (!started_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!finished_) {  // the run ended before the host program did: unwind it
      cancelled_ = true;
      host_turn_ = true;
    }
  }
  cv_.notify_all();
  thread_.join();
}

void ApplicationRunner::host_main() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return host_turn_; });
  }
  std::exception_ptr error;
  try {
    app_->host();
  } catch (const Cancelled&) {
  } catch (const BoundReached&) {
  } catch (...) {
    error = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
    finished_ = true;
    host_turn_ = false;
  }
  cv_.notify_all();
}

void ApplicationRunner::host_launch(const std::string& name, std::unique_ptr<Kernel> kernel) {
  if (max_launches_ != 0 && launches_ >= max_launches_) {  // finished_ (host_main) publishes the message
    cut_short_ = "application '" + name_ +
                 "' stopped at its launch bound: its host program asked for launch " +
                 std::to_string(launches_ + 1) + " ('" + name + "') after " + std::to_string(max_launches_) +
                 " (" + max_launches_reason_;
    throw BoundReached{};
  }
  ++launches_;
  // Built on the host thread (cheap: the launch's shape; CTAs execute later, on the simulation's).
  auto program =
      std::make_unique<CppKernelProgram>(name_ + "/" + name, std::move(kernel), line_bytes_, latencies_);
  program->bound_by(bounds_);
  std::unique_lock<std::mutex> lock(mutex_);
  handed_ = std::move(program);
  handed_name_ = name;
  host_turn_ = false;
  cv_.notify_all();
  cv_.wait(lock, [this] { return host_turn_; });
  if (cancelled_) throw Cancelled{};
}

const KernelProgram* ApplicationRunner::next() {
  if (previous_) retired_seconds_ += previous_->generation_seconds();
  previous_ = std::move(current_);
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (finished_) return nullptr;
    if (!started_) {
      started_ = true;
      thread_ = std::thread([this] { host_main(); });
    }
    host_turn_ = true;
    cv_.notify_all();
    cv_.wait(lock, [this] { return !host_turn_; });
    if (finished_) {
      lock.unlock();
      thread_.join();
      started_ = false;
      if (error_) std::rethrow_exception(error_);
      return nullptr;
    }
    current_ = std::move(handed_);
    launch_name_ = handed_name_;
  }
  if (check_) check_(*current_);
  return current_.get();
}

double ApplicationRunner::generation_seconds() const {
  return retired_seconds_ + (previous_ ? previous_->generation_seconds() : 0.0) +
         (current_ ? current_->generation_seconds() : 0.0);
}

}  // namespace numagpu::kernels
