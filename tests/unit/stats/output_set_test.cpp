// OutputSet: a set of files appears in its directory whole or not at all, its marker file last.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stats/output_set.hpp"

namespace numagpu {
namespace {

namespace fs = std::filesystem;

class OutputSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "numagpu_output_set_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
  }
  void TearDown() override { fs::remove_all(root_); }

  // Every name in `dir`, hidden ones included, sorted.
  static std::vector<std::string> names(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(dir))
      out.push_back(entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::string read(const fs::path& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path root_;
  const std::vector<std::string> owned_ = {"stats.json", "a.txt", "b.txt"};
};

TEST_F(OutputSetTest, ProbeMakesTheDirectoryAndLeavesNothingInIt) {
  OutputSet set((root_ / "x/y").string(), owned_, "stats.json");
  set.probe();
  EXPECT_TRUE(fs::is_directory(root_ / "x/y"));
  EXPECT_TRUE(names(root_ / "x/y").empty());
}

TEST_F(OutputSetTest, NothingAppearsBeforeCommitAndAllAfterIt) {
  const fs::path dir = root_ / "out";
  OutputSet set(dir.string(), owned_, "stats.json");
  set.probe();
  set.add("stats.json", "{}\n");
  set.add("a.txt", "a\n");
  for (const std::string& name : names(dir))
    EXPECT_EQ(name.rfind(".numagpu-staging.", 0), 0u) << name;  // only the staging directory so far
  set.commit();
  EXPECT_EQ(names(dir), (std::vector<std::string>{"a.txt", "stats.json"}));
  EXPECT_EQ(read(dir / "a.txt"), "a\n");
}

TEST_F(OutputSetTest, ASetNeverCommittedLeavesNothingAndRemovesTheDirectoryItMade) {
  const fs::path dir = root_ / "out";
  {
    OutputSet set(dir.string(), owned_, "stats.json");
    set.probe();
    set.add("a.txt", "a\n");
  }
  EXPECT_FALSE(fs::exists(dir));
}

// A rerun replaces the previous set whole: the files it does not write go, the ones it writes are new.
TEST_F(OutputSetTest, CommitReplacesThePreviousSetWhole) {
  const fs::path dir = root_ / "out";
  {
    OutputSet first(dir.string(), owned_, "stats.json");
    first.probe();
    first.add("stats.json", "1\n");
    first.add("a.txt", "1\n");
    first.add("b.txt", "1\n");
    first.commit();
  }
  std::ofstream(dir / "mine.txt") << "not owned\n";
  {
    OutputSet failed(dir.string(), owned_, "stats.json");
    failed.probe();
    failed.add("stats.json", "2\n");
  }  // not committed: the first set is untouched
  EXPECT_EQ(read(dir / "stats.json"), "1\n");
  EXPECT_EQ(names(dir), (std::vector<std::string>{"a.txt", "b.txt", "mine.txt", "stats.json"}));
  OutputSet second(dir.string(), owned_, "stats.json");
  second.probe();
  second.add("stats.json", "2\n");
  second.add("a.txt", "2\n");
  second.commit();
  EXPECT_EQ(names(dir), (std::vector<std::string>{"a.txt", "mine.txt", "stats.json"}));
  EXPECT_EQ(read(dir / "stats.json"), "2\n");
  EXPECT_EQ(read(dir / "a.txt"), "2\n");
}

TEST_F(OutputSetTest, ProbeOfADirectoryThatCannotBeMadeIsOneLine) {
  std::ofstream(root_ / "file") << "x\n";
  OutputSet set((root_ / "file/out").string(), owned_, "stats.json");
  try {
    set.probe();
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              (root_ / "file/out").string() + ": cannot create output directory (Not a directory)");
  }
}

}  // namespace
}  // namespace numagpu
