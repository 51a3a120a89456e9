// Writes seed inputs for ngt_fuzzer: each Accel-Sim trace given converted to .ngt with numagpu's own writer,
// prefixed by the framing byte (plain, gzip, xz; fuzz/harness.hpp). Usage: ngt_seeds OUTDIR TRACE...
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "harness.hpp"
#include "trace/convert.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: ngt_seeds OUTDIR TRACE...\n";
    return 2;
  }
  namespace fs = std::filesystem;
  const fs::path out(argv[1]);
  fs::create_directories(out);
  for (int i = 2; i < argc; ++i) {
    const fs::path trace(argv[i]);
    const fs::path ngt = out / (trace.stem().string() + ".ngt.tmp");
    try {
      numagpu::trace::convert_accelsim_kernel(trace.string(), ngt.string());
    } catch (const std::exception& e) {
      std::cerr << "ngt_seeds: " << e.what() << "\n";
      return 1;
    }
    std::ostringstream bytes;
    bytes << std::ifstream(ngt, std::ios::binary).rdbuf();
    fs::remove(ngt);
    for (char framing : {char(numagpu::fuzz::kPlain), char(numagpu::fuzz::kGzip), char(numagpu::fuzz::kXz)}) {
      std::ofstream(out / (trace.stem().string() + "-" + std::to_string(int(framing)) + ".ngt"),
                    std::ios::binary)
          << framing << bytes.str();
    }
  }
  return 0;
}
