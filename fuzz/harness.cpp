#include "harness.hpp"

#include <lzma.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "cli/hw_csv.hpp"
#include "config/config.hpp"
#include "kernels/metis_graph.hpp"
#include "system/system_config.hpp"
#include "trace/accelsim_reader.hpp"
#include "trace/ngt.hpp"

namespace numagpu::fuzz {
namespace {

namespace fs = std::filesystem;

class ScratchDir {
 public:
  ScratchDir() {
    const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    std::string pattern = (base / "numagpu_fuzz_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("fuzz: cannot read " + path);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("fuzz: cannot write " + path);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
}

std::string gzip(const std::string& in) {
  z_stream z{};
  deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, in.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string xz(const std::string& in) {
  std::string out(lzma_stream_buffer_bound(in.size()), '\0');
  size_t written = 0;
  lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, nullptr, reinterpret_cast<const uint8_t*>(in.data()),
                          in.size(), reinterpret_cast<uint8_t*>(out.data()), &written, out.size());
  out.resize(written);
  return out;
}

// Framed copy of the input: what the first byte asks for, applied to the rest.
std::string framed(std::uint8_t framing, const std::string& body) {
  switch (framing) {
    case kGzip:
      return gzip(body);
    case kXz:
      return xz(body);
    default:
      return body;
  }
}

template <class Read>
std::optional<std::string> read_expecting_trace_error(const std::string& path, Read read) {
  try {
    read();
  } catch (const trace::TraceError& e) {
    return check_error_line(e.what(), path);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_error_line(const std::string& message, const std::string& must_start_with) {
  if (message.empty()) return "empty error message";
  if (message.find('\n') != std::string::npos) return "error message spans several lines: " + message;
  if (message.rfind(must_start_with, 0) != 0)
    return "error message does not start with '" + must_start_with + "': " + message;
  return std::nullopt;
}

const std::string& scratch_dir() {
  static const ScratchDir dir;
  return dir.path();
}

std::optional<std::string> config_input(const std::uint8_t* data, std::size_t size,
                                        const std::string& source_dir) {
  static const std::string workload = read_text(source_dir + "/configs/workloads/default.yaml");
  static const std::string system = read_text(source_dir + "/configs/paper_4socket.yaml");
  const std::vector<config::Layer> layers{
      {"<built-in configs/workloads/default.yaml>", workload},
      {"<built-in configs/paper_4socket.yaml>", system},
      {"fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size)},
  };
  try {
    const config::Config cfg = config::load(system_schema(), layers, {});
    (void)to_system_spec(cfg);
  } catch (const config::ConfigError& e) {
    // Errors in the input name it; a cross-field error may point at a value the input left alone (a built-in
    // layer's): any of the three names is right, as long as it is one line.
    const std::string what = e.what();
    for (const config::Layer& l : layers) {
      if (what.rfind(l.name, 0) == 0) return check_error_line(what, l.name);
    }
    return check_error_line(what, "fuzz.yaml");
  }
  return std::nullopt;
}

std::optional<std::string> accelsim_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return std::nullopt;
  const std::uint8_t framing = data[0] % kFramings;
  const std::string body(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string path = scratch_dir() + (framing == kKernelList ? "/kernelslist.g"
                                            : framing == kGzip     ? "/kernel.traceg.gz"
                                            : framing == kXz       ? "/kernel.traceg.xz"
                                                                   : "/kernel.traceg");
  write_bytes(path, framed(framing, body));
  if (framing == kKernelList) {
    return read_expecting_trace_error(path, [&] { (void)trace::read_kernel_list(path); });
  }
  return read_expecting_trace_error(path, [&] {
    trace::AccelSimKernelReader reader(path);
    (void)trace::count_trace(reader);
  });
}

std::optional<std::string> ngt_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return std::nullopt;
  const std::uint8_t framing = data[0] % 3;
  const std::string body(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string path = scratch_dir() + (framing == kGzip ? "/kernel.ngt.gz"
                                            : framing == kXz ? "/kernel.ngt.xz"
                                                             : "/kernel.ngt");
  write_bytes(path, framed(framing, body));
  return read_expecting_trace_error(path, [&] {
    trace::NgtReader reader(path);
    (void)trace::count_trace(reader);
  });
}

std::optional<std::string> hw_csv_input(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return std::nullopt;
  const bool power = data[0] % 2 == 1;
  const std::string path = scratch_dir() + (power ? "/hw_power.csv" : "/hw_perf.csv");
  write_bytes(path, std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  const auto bad_name = [](const std::string& name) {
    if (name.empty()) return true;
    for (char c : name)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
    return false;
  };
  try {
    if (power) {
      std::set<std::string> names;
      for (const HwPowerRow& r : read_hw_power_csv(path)) {
        if (bad_name(r.name)) return "hwcsv: an accepted power row with an empty name or a control byte";
        if (!names.insert(r.name).second) return "hwcsv: an accepted power table names a kernel twice";
        if (!std::isfinite(r.watts) || r.watts < kHwPowerMinW || r.watts > kHwPowerMaxW)
          return "hwcsv: an accepted power outside the reader's limits";
      }
    } else {
      std::set<std::pair<std::string, std::string>> kernels;
      for (const HwRow& r : read_hw_csv(path)) {
        if (bad_name(r.benchmark) || bad_name(r.kernel))
          return "hwcsv: an accepted counter row with an empty name or a control byte";
        if (!kernels.insert({r.benchmark, r.kernel}).second)
          return "hwcsv: an accepted counter table has a kernel twice";
        for (const auto& [counter, v] : r.counters) {
          if (!std::isfinite(v) || v < 0 || v > kHwCounterMax || (v > 0 && v < 1e-12))
            return "hwcsv: an accepted counter " + counter + " outside the reader's limits";
          if (counter == "Elapsed_Cycles" && v < 1) return "hwcsv: an accepted Elapsed_Cycles under 1";
          if (counter == "Num_Idle_SMs" && v > kHwIdleSmsMax)
            return "hwcsv: an accepted Num_Idle_SMs over 80";
        }
      }
    }
  } catch (const HwCsvError& e) {
    return check_error_line(e.what(), path);
  }
  return std::nullopt;
}

namespace {

const char* malformed(const kernels::CsrGraph& g) {
  if (g.row_ptr.size() != std::size_t(g.vertices) + 1 || g.row_ptr.front() != 0)
    return "row_ptr's size or start";
  if (g.row_ptr.back() != g.col.size() || g.weight.size() != g.col.size())
    return "row_ptr's end or the weights";
  for (std::size_t v = 0; v + 1 < g.row_ptr.size(); ++v)
    if (g.row_ptr[v] > g.row_ptr[v + 1]) return "row_ptr decreases";
  for (std::uint32_t c : g.col)
    if (c >= g.vertices) return "a neighbour outside the graph";
  return nullptr;
}

}  // namespace

std::optional<std::string> metis_input(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The same bytes as a file, which the reader parses as it reads: the same graph or the same error.
  const std::string path = scratch_dir() + "/fuzz.graph";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), std::streamsize(text.size()));
  }
  std::string file_error;
  kernels::CsrGraph from_file;
  try {
    from_file = kernels::read_metis_graph(path);
  } catch (const kernels::GraphError& e) {
    file_error = e.what();
  }
  kernels::CsrGraph g;
  try {
    g = kernels::parse_metis_graph(text, path);
  } catch (const kernels::GraphError& e) {
    if (auto problem = check_error_line(e.what(), path)) return "metis: " + *problem;
    if (file_error != e.what()) return "metis: the file gave another error: " + file_error;
    return std::nullopt;
  }
  if (!file_error.empty()) return "metis: the text parses, the file gives: " + file_error;
  if (from_file.row_ptr != g.row_ptr || from_file.col != g.col || from_file.weight != g.weight ||
      from_file.has_edge_weights != g.has_edge_weights)
    return std::string("metis: the file gave another graph than its text");
  const char* problem = malformed(g);
  if (!problem && g.vertices <= (1u << 16)) problem = malformed(kernels::extrude(g, 3));
  if (problem) return std::string("metis: ") + problem;
  if (g.row_ptr.capacity() > size + 2 || g.col.capacity() > size / 2 + 1)
    return "metis: reserved more than the text can hold";
  try {
    const kernels::CsrGraph limited = kernels::parse_metis_graph(text, path, {1000, "(the limit)"});
    if (limited.col != g.col || limited.weight != g.weight || limited.has_edge_weights != g.has_edge_weights)
      return std::string("metis: a weight limit changed the graph");
  } catch (const kernels::GraphError& e) {
    if (auto p = check_error_line(e.what(), path)) return "metis: " + *p;
  }
  return std::nullopt;
}

}  // namespace numagpu::fuzz
