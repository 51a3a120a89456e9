// Running an application's host program without the timing model, for the tests' hand-counted traffic: every
// launch's CTAs are executed in order (as the simulation would, lazily, before the next launch is asked for)
// and its traffic recorded like testing::walk's.
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "kernels/application.hpp"
#include "traffic.hpp"

namespace numagpu::kernels::testing {

struct AppLaunch {
  std::string name;
  Traffic traffic;
};

struct AppWalk {
  std::vector<AppLaunch> launches;
  std::vector<std::string> names() const {
    std::vector<std::string> r;
    for (const AppLaunch& l : launches)
      r.push_back(l.name);
    return r;
  }
};

// Runs `app` (name, args, input) to its end; `after`, if given, sees the application then (its arrays'
// values).
inline AppWalk walk_app(const std::string& app, const std::string& args, const std::string& input = "",
                        const std::function<void(const Application&)>& after = {}) {
  std::unique_ptr<Application> a = make_app(app, args, input, kTrafficBase);
  AppWalk r;
  const std::vector<runtime::Allocation> arrays = a->allocations();
  a->set_launcher([&r, &arrays](const std::string& name, std::unique_ptr<Kernel> k) {
    const CppKernelProgram p(name, std::move(k), kTrafficLine);
    r.launches.push_back({name, walk(p, arrays)});
  });
  a->host();
  if (after) after(*a);
  return r;
}

// A METIS graph written to a temporary file (removed when this goes out of scope).
class TempGraph {
 public:
  explicit TempGraph(const std::string& text)
      // The process id keeps test processes that ctest runs in parallel from sharing a file.
      : path_(std::string(::testing::TempDir()) + "app_walk_" + std::to_string(::getpid()) + "_" +
              std::to_string(counter()++) + ".graph") {
    std::ofstream(path_) << text;
  }
  ~TempGraph() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  static int& counter() {
    static int c = 0;
    return c;
  }
  std::string path_;
};

}  // namespace numagpu::kernels::testing
