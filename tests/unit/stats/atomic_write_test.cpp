// write_file_atomically(): results on success, clean failure, and survival of SIGKILL mid-write.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "stats/atomic_write.hpp"

namespace numagpu {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

// Names in a directory, without "." and "..".
std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// A fresh directory per test, removed (with whatever is left in it) afterwards.
class AtomicWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "numagpu_atomic_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    ::chmod(dir_.c_str(), 0755);
    const std::string cmd = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }
  std::string at(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
};

TEST_F(AtomicWriteTest, CreatesNewFile) {
  write_file_atomically(at("out.json"), "hello\n");
  EXPECT_EQ(read_file(at("out.json")), "hello\n");
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"out.json"});  // no temp file left
}

TEST_F(AtomicWriteTest, ReplacesExistingFileCompletely) {
  write_file_atomically(at("out.json"), "a much longer old content");
  write_file_atomically(at("out.json"), "new");
  EXPECT_EQ(read_file(at("out.json")), "new");
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"out.json"});
}

TEST_F(AtomicWriteTest, EmptyAndBinaryContents) {
  write_file_atomically(at("empty"), "");
  EXPECT_EQ(read_file(at("empty")), "");
  const std::string binary("a\0b\xff", 4);
  write_file_atomically(at("bin"), binary);
  EXPECT_EQ(read_file(at("bin")), binary);
}

TEST_F(AtomicWriteTest, KeepsPermissionsOfReplacedFile) {
  write_file_atomically(at("out"), "v1");
  ASSERT_EQ(::chmod(at("out").c_str(), 0640), 0);
  write_file_atomically(at("out"), "v2");
  struct stat st;
  ASSERT_EQ(::stat(at("out").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST_F(AtomicWriteTest, RelativePathWritesInCurrentDirectory) {
  char old_cwd[4096];
  ASSERT_NE(::getcwd(old_cwd, sizeof old_cwd), nullptr);
  ASSERT_EQ(::chdir(dir_.c_str()), 0);
  write_file_atomically("rel.txt", "relative");
  ASSERT_EQ(::chdir(old_cwd), 0);
  EXPECT_EQ(read_file(at("rel.txt")), "relative");
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"rel.txt"});
}

TEST_F(AtomicWriteTest, MissingDirectoryFailsWithPathAndReason) {
  const std::string target = at("missing/out.json");
  try {
    write_file_atomically(target, "x");
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), target + ": cannot write (No such file or directory)");
  }
  EXPECT_TRUE(list_dir(dir_).empty());
}

// The temp file is created and written, then the rename fails: the cleanup path after creation.
TEST_F(AtomicWriteTest, FailedRenameLeavesTargetAndNoTempFile) {
  const std::string target = at("target");
  ASSERT_EQ(::mkdir(target.c_str(), 0755), 0);
  write_file_atomically(target + "/inside", "keep me");
  EXPECT_THROW(write_file_atomically(target, "replacement"), std::runtime_error);
  struct stat st;
  ASSERT_EQ(::stat(target.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(read_file(target + "/inside"), "keep me");
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"target"});
}

TEST_F(AtomicWriteTest, ReadOnlyDirectoryLeavesOldTarget) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  write_file_atomically(at("out"), "old");
  ASSERT_EQ(::chmod(dir_.c_str(), 0555), 0);
  EXPECT_THROW(write_file_atomically(at("out"), "new"), std::runtime_error);
  EXPECT_EQ(read_file(at("out")), "old");
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"out"});
}

TEST_F(AtomicWriteTest, ConcurrentWritersNeverMix) {
  const std::string a(256 * 1024, 'a'), b(300 * 1024, 'b');
  std::thread ta([&] {
    for (int i = 0; i < 20; ++i)
      write_file_atomically(at("out"), a);
  });
  std::thread tb([&] {
    for (int i = 0; i < 20; ++i)
      write_file_atomically(at("out"), b);
  });
  ta.join();
  tb.join();
  const std::string result = read_file(at("out"));
  EXPECT_TRUE(result == a || result == b) << "size " << result.size();
  EXPECT_EQ(list_dir(dir_), std::vector<std::string>{"out"});
}

// A child rewrites a multi-megabyte file in a loop, alternating two complete contents, and is SIGKILLed at a
// random moment. Asserted afterwards:
//  - the target is byte for byte one of the two contents (never empty, truncated or mixed);
//  - the directory holds the target and at most one other file, which must be a temp file of the killed
//    child (".out.tmp.<child pid>.<n>"): the one it had open when killed, which nobody can clean up.
// Several rounds with fresh random delays make it likely that some kills land mid-write, mid-fsync or
// right around the rename.
TEST_F(AtomicWriteTest, SurvivesSigkillAtAnyPoint) {
  const std::string target = at("out");
  std::string a(4 * 1024 * 1024, 'A');
  std::string b(6 * 1024 * 1024, 'B');
  a.replace(a.size() - 6, 6, "END-A\n");  // distinct tails would expose a file cut at the other's length
  b.replace(b.size() - 6, 6, "END-B\n");
  write_file_atomically(target, a);

  std::random_device seed_source;
  const unsigned seed = seed_source();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> delay_ms(1, 80);

  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::alarm(60);  // never outlive a parent that failed to kill us
      try {
        for (unsigned i = 0;; ++i)
          write_file_atomically(target, i % 2 ? a : b);
      } catch (...) {
        ::_exit(3);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));
    ASSERT_EQ(::kill(child, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "child failed on its own, status " << status;

    const std::string result = read_file(target);
    EXPECT_TRUE(result == a || result == b) << "target has " << result.size() << " bytes";

    const std::string child_temp = ".out.tmp." + std::to_string(child) + ".";
    int others = 0;
    for (const std::string& name : list_dir(dir_)) {
      if (name == "out") continue;
      ++others;
      EXPECT_EQ(name.rfind(child_temp, 0), 0u) << "unexpected file " << name;
      ::unlink(at(name).c_str());  // the next round starts clean
    }
    EXPECT_LE(others, 1);
  }
}

}  // namespace
}  // namespace numagpu
