#include "cli/study_kernels.hpp"

#include <cctype>

#include "cli/embedded_configs.hpp"
#include "cli/hw_csv.hpp"
#include "config/schema.hpp"
#include "kernels/library.hpp"

namespace numagpu {

namespace {

config::Schema make_schema() {
  config::Schema s;
  config::Schema& counter =
      s.list("counters", "Rows of the counter table (hw_perf_train.csv) and their library kernels").element();
  counter.string("benchmark", "The row's Benchmark; empty: any").default_value("");
  counter.string("function", "The function its Kernel column names (demangled)").required();
  counter.string("kernel", "The library kernel that stands for it").required();
  counter.integer("launches", "Launches simulated and compared with the row").range(1, 1000).default_value(1);
  config::Schema& power =
      s.list("power", "Rows of the measured-power table (hw_power_train.csv), <app>_k<N>").element();
  power.string("app", "The row's <app>").required();
  power.integer("index", "The row's N: the application's N-th measured kernel").range(1, 1000).required();
  power.string("kernel", "The library kernel that stands for it").required();
  power.string("args", "Its arguments; empty: the kernel's defaults").default_value("");
  return s;
}

// The kernel at `path` (a list item's `kernel` key), which must be in the library.
std::string library_kernel(const config::Config& c, const std::string& path) {
  const std::string name = c.string(path);
  if (!kernels::library().count(name))
    c.fail(path, "'" + name + "' is not a library kernel (numagpu kernels lists them)");
  return name;
}

}  // namespace

StudyKernelMap StudyKernelMap::load(const config::Layer& layer) {
  static const config::Schema schema = make_schema();
  const config::Config c = config::load(schema, {layer}, {});
  StudyKernelMap map;
  for (std::size_t i = 0; i < c.list_size("counters"); ++i) {
    const std::string at = "counters." + std::to_string(i) + ".";
    map.counters_.push_back({c.string(at + "benchmark"),
                             c.string(at + "function"),
                             {library_kernel(c, at + "kernel"), "", unsigned(c.integer(at + "launches"))}});
  }
  for (std::size_t i = 0; i < c.list_size("power"); ++i) {
    const std::string at = "power." + std::to_string(i) + ".";
    map.power_.push_back({c.string(at + "app"),
                          unsigned(c.integer(at + "index")),
                          {library_kernel(c, at + "kernel"), c.string(at + "args"), 1}});
  }
  return map;
}

const StudyKernelMap& StudyKernelMap::builtin() {
  static const StudyKernelMap map =
      load({"<built-in configs/correlate/gv100_kernels.yaml>", std::string(embedded::kGv100Kernels)});
  return map;
}

std::optional<StudyKernel> StudyKernelMap::counter_row(const std::string& benchmark,
                                                       const std::string& kernel) const {
  const std::string fn = function_name(kernel);
  for (const CounterEntry& e : counters_) {
    if ((e.benchmark.empty() || benchmark == e.benchmark) && fn == e.function) return e.kernel;
  }
  return std::nullopt;
}

std::optional<StudyKernel> StudyKernelMap::power_row(const std::string& row_name) const {
  const std::size_t k = row_name.rfind("_k");
  if (k == std::string::npos || k == 0 || k + 2 >= row_name.size()) return std::nullopt;
  unsigned index = 0;
  for (std::size_t i = k + 2; i < row_name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(row_name[i])) || index > 1000) return std::nullopt;
    index = index * 10 + unsigned(row_name[i] - '0');
  }
  const std::string app = row_name.substr(0, k);
  for (const PowerEntry& e : power_) {
    if (app == e.app && index == e.index) return e.kernel;
  }
  return std::nullopt;
}

std::optional<StudyKernel> study_kernel(const std::string& benchmark, const std::string& kernel) {
  return StudyKernelMap::builtin().counter_row(benchmark, kernel);
}

std::optional<StudyKernel> power_study_kernel(const std::string& row_name) {
  return StudyKernelMap::builtin().power_row(row_name);
}

}  // namespace numagpu
