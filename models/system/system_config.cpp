// The program's side of the configuration: the schema is what the parameter structs declare
// (system/system_params.hpp and the component headers it includes, plus the energy table's section); a
// loaded configuration is read back into those structs by the same declarations, the paths in it are
// resolved against the files that set them, and the system derives its SystemSpec (system/derive_spec.hpp),
// whose rule violations come back here to be reported at the file and line of the key they blame.
#include "system/system_config.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "config/keys.hpp"
#include "kernels/application.hpp"
#include "power/energy_config.hpp"
#include "system/derive_spec.hpp"
#include "system/resource_limits.hpp"
#include "system/system_params.hpp"
#include "trace/accelsim_reader.hpp"

namespace numagpu {

namespace {

config::Schema build_schema() {
  config::Schema root;
  config::SchemaKeys keys(root);
  SystemParams defaults;
  defaults.keys(keys);
  power::add_energy_schema(root);
  return root;
}

// A path written in a configuration file is relative to that file; one from --set or a built-in layer is
// relative to the working directory.
std::string relative_to_setter(const config::Config& cfg, const std::string& key) {
  const std::string value = cfg.string(key);
  const std::filesystem::path p(value);
  const config::Location where = cfg.location(key);
  if (p.is_absolute() || where.line == 0) return value;
  return (std::filesystem::path(where.file).parent_path() / p).lexically_normal().string();
}

// A trace that cannot be opened is reported at the key that names it. Its contents are read when the
// workload is built (system/workload_builder.hpp), and a problem there is reported at the trace's own file
// and line. Asked without opening the file: the workload builder opens each trace once.
void check_openable(const config::Config& cfg, const std::string& key, const std::string& path) {
  if (::access(path.c_str(), R_OK) != 0) cfg.fail(key, path + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    cfg.fail(key, path + ": cannot open (" + std::strerror(EISDIR) + ")");
}

// True when a user's file or --set gave the key, rather than the schema default or a built-in layer.
bool named_by_user(const config::Config& cfg, const std::string& key) {
  const config::Location where = cfg.location(key);
  return where.file != "<default>" && where.file.rfind("<built-in", 0) != 0;
}

// A trace replay is named after what it replays: the kernel list's file and its first kernels, so that a
// summary never shows the built-in workload's name for a run that did not use it.
std::string trace_workload_name(const std::string& list, const std::vector<KernelSpec>& kernels) {
  constexpr std::size_t kShown = 3;
  std::string name = std::filesystem::path(list).filename().string() + ":";
  for (std::size_t i = 0; i < kernels.size() && i < kShown; ++i)
    name += (i ? ", " : " ") + kernels[i].name;
  if (kernels.size() > kShown) name += " +" + std::to_string(kernels.size() - kShown) + " more";
  return name;
}

// Files named in the configuration: trace paths are taken from the file that set them, and a kernel list
// (workload.trace_list) is read into the workload's kernels.
void resolve_files(const config::Config& cfg, SystemParams& p) {
  WorkloadParams& w = p.workload;
  if (!w.trace_list.empty()) {
    w.trace_list = relative_to_setter(cfg, "workload.trace_list");
    w.kernels.clear();
    try {
      const trace::KernelList kl = trace::read_kernel_list(w.trace_list);
      for (const std::string& path : kl.kernel_paths()) {
        KernelSpec ks;
        ks.name = std::filesystem::path(path).filename().string();
        ks.trace_path = path;
        check_openable(cfg, "workload.trace_list", path);
        w.kernels.push_back(ks);
      }
    } catch (const trace::TraceError& e) {
      cfg.fail("workload.trace_list", e.what());
    }
    if (!named_by_user(cfg, "workload.name")) w.name = trace_workload_name(w.trace_list, w.kernels);
    return;
  }
  for (std::size_t i = 0; i < w.kernels.size(); ++i) {
    const std::string input = "workload.kernels." + std::to_string(i) + ".input";
    if (!w.kernels[i].input.empty()) {
      w.kernels[i].input = relative_to_setter(cfg, input);
      check_openable(cfg, input, w.kernels[i].input);
    }
    const std::string key = "workload.kernels." + std::to_string(i) + ".trace";
    if (w.kernels[i].trace_path.empty()) continue;
    w.kernels[i].trace_path = relative_to_setter(cfg, key);
    check_openable(cfg, key, w.kernels[i].trace_path);
  }
}

SystemParams read_params(const config::Config& cfg) {
  check_resource_limits(cfg);  // before anything is sized from the values
  SystemParams params;
  config::ReadKeys keys(cfg, "");
  params.keys(keys);
  resolve_files(cfg, params);
  return params;
}

std::string absolute_path(const std::string& path) {
  return std::filesystem::absolute(std::filesystem::path(path)).lexically_normal().string();
}

}  // namespace

const config::Schema& system_schema() {
  static const config::Schema schema = build_schema();
  return schema;
}

SystemSpec to_system_spec(const config::Config& cfg) {
  const SystemParams params = read_params(cfg);
  SystemSpec spec;
  try {
    spec = derive_system_spec(params);
  } catch (const SpecError& e) {
    cfg.fail(e.key(), e.what());
  }
  return spec;
}

std::string trace_key(const config::Config& cfg, std::size_t kernel) {
  if (!cfg.string("workload.trace_list").empty()) return "workload.trace_list";
  return "workload.kernels." + std::to_string(kernel) + ".trace";
}

config::Config as_run_configuration(const config::Config& cfg) {
  const WorkloadParams w = read_params(cfg).workload;
  nlohmann::json tree = cfg.resolved();
  nlohmann::json& workload = tree["workload"];
  bool changed = false;
  if (!workload["trace_list"].get<std::string>().empty()) {
    // The list's kernels, as workload.kernels: every other key of a kernel takes the default that a kernel
    // read from a list has too.
    nlohmann::json kernels = nlohmann::json::array();
    for (const KernelSpec& k : w.kernels)
      kernels.push_back({{"name", k.name}, {"trace", absolute_path(k.trace_path)}});
    workload["kernels"] = std::move(kernels);
    workload["trace_list"] = "";
    workload["name"] = w.name;
    changed = true;
  } else {
    for (std::size_t i = 0; i < w.kernels.size(); ++i) {
      if (w.kernels[i].trace_path.empty()) continue;
      nlohmann::json& trace = workload["kernels"][i]["trace"];
      const std::string absolute = absolute_path(w.kernels[i].trace_path);
      if (trace.get<std::string>() != absolute) {
        trace = absolute;
        changed = true;
      }
    }
  }
  if (!changed) return cfg;
  // JSON is YAML: the tree loads back through the schema, which fills the defaults and checks it.
  return config::load(system_schema(), {{"<as run>", tree.dump()}}, {});
}

std::vector<InputFile> input_files(const config::Config& cfg) {
  const WorkloadParams w = read_params(cfg).workload;
  std::vector<InputFile> files;
  if (!w.trace_list.empty()) {
    files.push_back({"workload.trace_list", w.trace_list});
    for (const KernelSpec& k : w.kernels)
      files.push_back({"workload.trace_list", k.trace_path});
    return files;
  }
  for (std::size_t i = 0; i < w.kernels.size(); ++i) {
    const KernelSpec& k = w.kernels[i];
    const std::string key = "workload.kernels." + std::to_string(i);
    if (!k.trace_path.empty()) files.push_back({key + ".trace", k.trace_path});
    if (!k.input.empty()) {
      files.push_back({key + ".input", k.input});
    } else if (!k.app.empty()) {
      const auto app = kernels::apps().find(k.app);
      if (app != kernels::apps().end() && !app->second.default_input.empty())
        files.push_back({key + ".app", app->second.default_input});
    }
  }
  return files;
}

}  // namespace numagpu
