// fatbin_dump FILE: the PTX entries of a fatbinary container file (tests/data/cuda/make_fatbin.sh writes
// one from an nvcc build), one line each, "sm_NN BYTES first-entry-name", or the reader's error line (status
// 1).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "cuda/fatbin.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fatbin_dump FILE\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fatbin_dump: cannot read %s\n", argv[1]);
    return 2;
  }
  std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    for (const auto& image : numagpu::cuda::ptx_from_fatbin_container(bytes.data(), bytes.size())) {
      auto entry = image.text.find(".entry ");
      auto name_end = entry == std::string::npos ? entry : image.text.find_first_of("( \n", entry + 7);
      std::printf(
          "sm_%u %zu %s\n", image.arch, image.text.size(),
          entry == std::string::npos ? "-" : image.text.substr(entry + 7, name_end - entry - 7).c_str());
    }
  } catch (const numagpu::cuda::FatbinError& e) {
    std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
    return 1;
  }
  return 0;
}
