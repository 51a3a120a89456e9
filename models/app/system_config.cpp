// The program's side of the configuration: the schema is what the parameter structs declare
// (system/system_params.hpp and the component headers it includes, plus the energy table's section); a
// loaded configuration is read back into those structs by the same declarations, the paths in it are
// resolved against the files that set them, and the system derives its SystemSpec (system/derive_spec.hpp),
// whose rule violations come back here to be reported at the file and line of the key they blame.
#include "app/system_config.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "app/resource_limits.hpp"
#include "config/keys.hpp"
#include "power/energy_config.hpp"
#include "system/derive_spec.hpp"
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

// A trace that cannot be opened is reported at the key that names it. Its contents are read when the system
// is built, and a problem there is reported at the trace's own file and line.
void check_openable(const config::Config& cfg, const std::string& key, const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) cfg.fail(key, path + ": cannot open (" + std::strerror(errno) + ")");
  struct stat st {};
  const bool directory = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
  ::close(fd);
  if (directory) cfg.fail(key, path + ": cannot open (" + std::strerror(EISDIR) + ")");
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
    const std::string key = "workload.kernels." + std::to_string(i) + ".trace";
    if (w.kernels[i].trace_path.empty()) continue;
    w.kernels[i].trace_path = relative_to_setter(cfg, key);
    check_openable(cfg, key, w.kernels[i].trace_path);
  }
}

}  // namespace

const config::Schema& system_schema() {
  static const config::Schema schema = build_schema();
  return schema;
}

SystemSpec to_system_spec(const config::Config& cfg) {
  check_resource_limits(cfg);  // before anything is sized from the values
  SystemParams params;
  config::ReadKeys keys(cfg, "");
  params.keys(keys);
  resolve_files(cfg, params);
  try {
    return derive_system_spec(params);
  } catch (const SpecError& e) {
    cfg.fail(e.key(), e.what());
  }
}

}  // namespace numagpu
