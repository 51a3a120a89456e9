// Every input that fuzzing ever found to break a reader (fuzz/regressions/<target>/, docs/reliability.md) is
// replayed through the same harness the fuzzers use: each must now be accepted or rejected with one clear
// line, and run without a crash or a sanitizer report (this suite also runs in the sanitizer build).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "ptx/kernel.hpp"
#include "ptx/module.hpp"

extern "C" int sc_main(int, char*[]) {
  return 0;
}

namespace numagpu::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_of(const std::string& target) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(NUMAGPU_SOURCE_DIR) / "fuzz" / "regressions" / target;
  if (!fs::is_directory(dir)) return files;  // nothing found for this target yet
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().filename() != "README.md") files.push_back(entry.path());
  }
  return files;
}

std::string bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  return all.str();
}

template <class Harness>
void replay_all(const std::string& target, Harness harness) {
  for (const fs::path& file : inputs_of(target)) {
    const std::string bytes = bytes_of(file);
    const auto problem = harness(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    EXPECT_FALSE(problem.has_value()) << file << ": " << *problem;
  }
}

TEST(FuzzRegressions, Config) {
  replay_all("config",
             [](const std::uint8_t* d, std::size_t n) { return config_input(d, n, NUMAGPU_SOURCE_DIR); });
}

TEST(FuzzRegressions, AccelSim) {
  replay_all("accelsim", accelsim_input);
}

TEST(FuzzRegressions, Ngt) {
  replay_all("ngt", ngt_input);
}

TEST(FuzzRegressions, HwCsv) {
  replay_all("hwcsv", hw_csv_input);
}

TEST(FuzzRegressions, Metis) {
  ASSERT_FALSE(inputs_of("metis").empty());
  replay_all("metis", metis_input);
}

// PTX, as fuzz/ptx_fuzzer.cpp reads it: the module parsed and each kernel it defines flattened, or a
// ParseError naming the file; any other exception (or a crash) is the regression.
TEST(FuzzRegressions, Ptx) {
  ASSERT_FALSE(inputs_of("ptx").empty());
  for (const fs::path& file : inputs_of("ptx")) {
    try {
      const auto module = ptx::parse_module(bytes_of(file), "fuzz.ptx");
      for (const auto& f : module->functions)
        if (f.is_entry && f.defined) {
          try {
            ptx::Kernel kernel(module, f.name);
          } catch (const ptx::ParseError& e) {
            EXPECT_FALSE(check_error_line(e.what(), "fuzz.ptx").has_value()) << file << ": " << e.what();
          }
        }
    } catch (const ptx::ParseError& e) {
      EXPECT_FALSE(check_error_line(e.what(), "fuzz.ptx").has_value()) << file << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << file << ": " << e.what();
    }
  }
}

// The harness itself must notice a broken promise, or the fuzzers could find nothing of the kind.
TEST(FuzzRegressions, HarnessRejectsMessagesThatBreakTheContract) {
  EXPECT_FALSE(check_error_line("a.yaml:1:2: l2.ways: 0 is out of range [1, 64]", "a.yaml").has_value());
  EXPECT_EQ(check_error_line("", "a.yaml"), "empty error message");
  EXPECT_EQ(check_error_line("a.yaml: two\nlines", "a.yaml"),
            "error message spans several lines: a.yaml: two\nlines");
  EXPECT_EQ(check_error_line("b.yaml: elsewhere", "a.yaml"),
            "error message does not start with 'a.yaml': b.yaml: elsewhere");
}

// And the real readers' rejections pass it: a syntax error, a file that is not a trace.
TEST(FuzzRegressions, RealRejectionsKeepTheContract) {
  const std::string not_yaml = "system: [1, 2\n";
  EXPECT_EQ(config_input(reinterpret_cast<const std::uint8_t*>(not_yaml.data()), not_yaml.size(),
                         NUMAGPU_SOURCE_DIR),
            std::nullopt);
  const std::string not_a_trace = std::string(1, char(kPlain)) + "this is not a trace\n";
  EXPECT_EQ(accelsim_input(reinterpret_cast<const std::uint8_t*>(not_a_trace.data()), not_a_trace.size()),
            std::nullopt);
  // A negative counter (byte 0: the counter table) and a duplicate power row (byte 1: the power table).
  using namespace std::string_literals;  // the first byte is a NUL
  for (const std::string& table :
       {"\x00"s + "Benchmark,Kernel,DRAM_Rd\nb,k,-1\n", "\x01"s + ",mean HW_power\na_k1,1\na_k1,2\n"}) {
    EXPECT_EQ(hw_csv_input(reinterpret_cast<const std::uint8_t*>(table.data()), table.size()), std::nullopt);
  }
}

}  // namespace
}  // namespace numagpu::fuzz
