// numagpu-trace: inspect and convert kernel traces outside the simulator.
//   numagpu-trace stats <kernelslist.g | kernel trace>...   counts per kernel, warnings, parse speed
//   numagpu-trace convert <kernel.traceg[.gz|.xz]> <out.ngt>
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include "trace/accelsim_reader.hpp"
#include "trace/convert.hpp"

namespace {

using numagpu::trace::OpKind;
using numagpu::trace::TraceCounts;

void print_warnings(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings)
    std::fprintf(stderr, "warning: %s\n", w.c_str());
}

void print_counts(const std::string& path, const TraceCounts& c, double seconds) {
  std::printf("%s\n  blocks %llu, warps %llu, instructions %llu\n", path.c_str(),
              static_cast<unsigned long long>(c.blocks), static_cast<unsigned long long>(c.warps),
              static_cast<unsigned long long>(c.instructions));
  std::printf(
      "  load %llu, store %llu, atomic %llu, barrier %llu, exit %llu, compute %llu; thread accesses %llu\n",
      static_cast<unsigned long long>(c.of(OpKind::kLoad)),
      static_cast<unsigned long long>(c.of(OpKind::kStore)),
      static_cast<unsigned long long>(c.of(OpKind::kAtomic)),
      static_cast<unsigned long long>(c.of(OpKind::kBarrier)),
      static_cast<unsigned long long>(c.of(OpKind::kExit)),
      static_cast<unsigned long long>(c.of(OpKind::kCompute)),
      static_cast<unsigned long long>(c.thread_accesses));
  std::printf("  %.3f s, %.2f M instructions/s\n", seconds,
              seconds > 0 ? c.instructions / seconds / 1e6 : 0.0);
}

void stats_of_kernel(const std::string& path) {
  const auto start = std::chrono::steady_clock::now();
  auto reader = numagpu::trace::open_kernel_trace(path);
  const TraceCounts counts = numagpu::trace::count_trace(*reader);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  print_warnings(reader->warnings());
  print_counts(path, counts, elapsed.count());
}

void stats(const std::string& path) {
  if (path.find("kernelslist") == std::string::npos) return stats_of_kernel(path);
  const numagpu::trace::KernelList list = numagpu::trace::read_kernel_list(path);
  print_warnings(list.warnings);
  for (const std::string& kernel : list.kernel_paths())
    stats_of_kernel(kernel);
}

int usage() {
  std::fprintf(stderr,
               "usage: numagpu-trace stats <kernelslist.g | kernel trace>...\n"
               "       numagpu-trace convert <kernel.traceg[.gz|.xz]> <out.ngt>\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string_view command = argv[1];
  try {
    if (command == "stats") {
      for (int i = 2; i < argc; ++i)
        stats(argv[i]);
      return 0;
    }
    if (command == "convert" && argc == 4) {
      const auto start = std::chrono::steady_clock::now();
      const auto result = numagpu::trace::convert_accelsim_kernel(argv[2], argv[3]);
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      print_warnings(result.warnings);
      print_counts(argv[3], result.counts, elapsed.count());
      std::printf("  %llu bytes written\n", static_cast<unsigned long long>(result.bytes_written));
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return usage();
}
