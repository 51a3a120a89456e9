// Shared fixtures for the configuration tests: a representative schema, temp files, error capture.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.hpp"

namespace numagpu::config::testing {

// A schema shaped like the simulator's: sections, every leaf type, a required key and a list.
inline Schema test_schema() {
  Schema s;
  s.string("name", "Name of the run").default_value("baseline");
  Schema& gpu = s.section("gpu", "GPU topology");
  gpu.integer("sockets", "Number of GPU sockets").range(1, 8).default_value(4);
  gpu.real("clock_ghz", "SM clock").range(0.5, 3.0).unit("GHz").default_value(1.5);
  gpu.boolean("coherent", "Hardware coherence between sockets").default_value(true);
  Schema& l2 = s.section("l2", "Shared L2 cache");
  l2.integer("size_bytes", "Capacity of one slice").min(1024).unit("B").required();
  l2.integer("ways", "Associativity").range(1, 32).default_value(16);
  l2.choice("organization", {"memside", "static", "shared", "numa_aware"}, "How slices are shared")
      .default_value("memside");
  Schema& kernel =
      s.section("workload", "What to run").list("kernels", "Kernels in launch order").max_items(4).element();
  kernel.string("name", "Kernel name").required();
  kernel.integer("ctas", "CTAs in the grid").range(1, 65536).default_value(1);
  return s;
}

// The one key test_schema() requires, so other tests can focus on what they check.
inline Layer base_layer() {
  return Layer{"base.yaml", std::string("l2:\n  size_bytes: 4096\n")};
}

inline Layer text_layer(const std::string& name, const std::string& yaml) {
  return Layer{name, yaml};
}

inline Layer file_layer(const std::string& path) {
  return Layer{path, std::nullopt};
}

// what() of the ConfigError that loading throws, or "<no error>".
inline std::string load_error(const std::vector<Layer>& layers, const std::vector<std::string>& sets = {},
                              const Schema& schema = test_schema()) {
  try {
    load(schema, layers, sets);
  } catch (const ConfigError& error) {
    return error.what();
  }
  return "<no error>";
}

// Error of `yaml` as the only layer after base_layer(), named "a.yaml".
inline std::string error_in(const std::string& yaml) {
  return load_error({base_layer(), text_layer("a.yaml", yaml)});
}

// A private directory under /tmp, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "numagpu_config_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string path() const { return path_.string(); }

  // Writes `text` to `relative` (creating directories) and returns the full path.
  std::string write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace numagpu::config::testing

namespace numagpu::config::testing {

// A small schema whose outputs (reference, YAML dump, hash) are checked verbatim.
inline Schema small_schema() {
  Schema s;
  Schema& cache = s.section("cache", "L2 cache");
  cache.integer("ways", "Associativity").range(1, 32).default_value(16);
  cache.real("hit_ns", "Hit latency").min(0.0).unit("ns").default_value(2.5);
  cache.choice("policy", {"lru", "random"}, "Replacement policy").default_value("lru");
  s.boolean("trace", "Write a trace").default_value(false);
  Schema& kernel = s.list("kernels", "Kernels in order").items(1, 8).element();
  kernel.string("name", "Kernel name").required();
  kernel.integer("ctas", "CTAs").default_value(1);
  return s;
}

inline Layer small_layer() {
  return Layer{"small.yaml", std::string("kernels:\n  - name: k0\n    ctas: 4\n")};
}

}  // namespace numagpu::config::testing
