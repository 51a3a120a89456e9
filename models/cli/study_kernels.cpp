#include "cli/study_kernels.hpp"

#include <cctype>
#include <map>
#include <sstream>
#include <stdexcept>

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
  counter.string("args", "Its arguments (name=value ...); empty: the kernel's defaults").default_value("");
  counter.integer("launches", "Launches simulated and compared with the row").range(1, 1000).default_value(1);
  config::Schema& cuda = counter.section("cuda", "Its CUDA version (examples/cuda/), for correlate --cuda");
  cuda.string("program", "The program, examples/cuda/PROGRAM.cu; empty: none").default_value("");
  cuda.string("args", "Its arguments; {name}: the library kernel's argument name").default_value("");
  cuda.string("kernel", "The display name of the kernel to simulate; empty: the function").default_value("");
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

// The library kernel's arguments: its defaults, overridden by `args` ("name=value ...").
std::map<std::string, std::string> library_arguments(const std::string& kernel, const std::string& args) {
  std::map<std::string, std::string> values;
  for (const kernels::ArgSpec& a : kernels::library().at(kernel).args)
    values[a.name] = std::to_string(a.default_value);
  std::istringstream in(args);
  for (std::string item; in >> item;)
    if (const auto eq = item.find('='); eq != std::string::npos)
      values[item.substr(0, eq)] = item.substr(eq + 1);
  return values;
}

std::vector<std::string> expand_cuda_args(const std::string& kernel, const std::string& library_args,
                                          const std::string& text) {
  const std::map<std::string, std::string> values = library_arguments(kernel, library_args);
  std::vector<std::string> argv;
  std::istringstream in(text);
  for (std::string word; in >> word;) {
    std::string out;
    for (std::size_t i = 0; i < word.size(); ++i) {
      if (word[i] != '{') {
        out += word[i];
        continue;
      }
      const std::size_t close = word.find('}', i);
      const std::string name = word.substr(i + 1, close == std::string::npos ? close : close - i - 1);
      const auto v = values.find(name);
      if (close == std::string::npos || v == values.end()) {
        std::string known;
        for (const auto& [n, value] : values)
          known += (known.empty() ? "" : ", ") + n;
        throw std::invalid_argument(
            "'{" + name +
            (close == std::string::npos ? "' is not closed" : "}' is not an argument of " + kernel) +
            " (its arguments: " + known + ")");
      }
      out += v->second;
      i = close;
    }
    argv.push_back(out);
  }
  return argv;
}

}  // namespace

std::vector<std::string> cuda_program_args(const StudyKernel& k) {
  return expand_cuda_args(k.library_name, k.args, k.cuda ? k.cuda->args : std::string());
}

StudyKernelMap StudyKernelMap::load(const config::Layer& layer) {
  static const config::Schema schema = make_schema();
  const config::Config c = config::load(schema, {layer}, {});
  StudyKernelMap map;
  for (std::size_t i = 0; i < c.list_size("counters"); ++i) {
    const std::string at = "counters." + std::to_string(i) + ".";
    StudyKernel k{library_kernel(c, at + "kernel"), c.string(at + "args"), unsigned(c.integer(at + "launches")),
                  std::nullopt};
    if (const std::string program = c.string(at + "cuda.program"); !program.empty()) {
      const bool plain =
          program.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
          std::string::npos;
      if (!plain)
        c.fail(at + "cuda.program", "'" + program + "': expected a program's name (examples/cuda/NAME.cu)");
      const std::string name = c.string(at + "cuda.kernel");
      k.cuda =
          CudaVersion{program, c.string(at + "cuda.args"), name.empty() ? c.string(at + "function") : name};
      try {
        cuda_program_args(k);
      } catch (const std::invalid_argument& e) {
        c.fail(at + "cuda.args", e.what());
      }
    } else if (!c.string(at + "cuda.args").empty() || !c.string(at + "cuda.kernel").empty()) {
      c.fail(at + "cuda.program", "required with cuda.args or cuda.kernel");
    }
    map.counters_.push_back({c.string(at + "benchmark"), c.string(at + "function"), k});
  }
  for (std::size_t i = 0; i < c.list_size("power"); ++i) {
    const std::string at = "power." + std::to_string(i) + ".";
    map.power_.push_back({c.string(at + "app"),
                          unsigned(c.integer(at + "index")),
                          {library_kernel(c, at + "kernel"), c.string(at + "args"), 1, std::nullopt}});
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
