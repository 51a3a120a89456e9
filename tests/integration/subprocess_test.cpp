// cli/subprocess: argv reaches the program byte for byte (no shell), the exit status and a signal death are
// told apart, a missing program is a clear error, and the streams go where the caller says.
#include "cli/subprocess.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

namespace numagpu::subprocess {
namespace {

Command piped(std::vector<std::string> argv) {
  Command c;
  c.argv = std::move(argv);
  c.out = Stream::kPipe;
  c.err = Stream::kPipe;
  return c;
}

// Spaces, quotes, `$`, a command substitution, a glob and an empty argument are plain bytes: printf prints
// each argument between brackets, which a shell in between would have split, expanded or dropped.
TEST(Subprocess, ArgumentsArriveVerbatim) {
  const Output o =
      run(piped({"printf", "[%s]\\n", "a b", "it's", "\"quoted\"", "$HOME", "$(echo x)", "*", ""}));
  EXPECT_TRUE(o.status.ok());
  EXPECT_EQ(o.out, "[a b]\n[it's]\n[\"quoted\"]\n[$HOME]\n[$(echo x)]\n[*]\n[]\n");
  EXPECT_EQ(o.err, "");
}

TEST(Subprocess, ExitStatusAndSignalDeathAreToldApart) {
  const Output exited = run(piped({"sh", "-c", "echo out; echo err >&2; exit 3"}));
  EXPECT_EQ(exited.status.code, 3);
  EXPECT_EQ(exited.status.signal, 0);
  EXPECT_FALSE(exited.status.ok());
  EXPECT_EQ(exited.status.shell_code(), 3);
  EXPECT_EQ(exited.status.text(), "exit 3");
  EXPECT_EQ(exited.out, "out\n");  // the two streams collected apart
  EXPECT_EQ(exited.err, "err\n");

  const Output killed = run(piped({"sh", "-c", "kill -TERM $$"}));
  EXPECT_EQ(killed.status.signal, 15);
  EXPECT_EQ(killed.status.shell_code(), 128 + 15);  // 143, as a shell reports it
  EXPECT_EQ(killed.status.text(), "killed by signal 15");
}

TEST(Subprocess, MissingProgramIsAClearError) {
  for (const std::string& name : {std::string("/nonexistent/numagpu-no-such-program"),
                                  std::string("numagpu-no-such-program")}) {  // a path, and a PATH lookup
    try {
      run(piped({name}));
      ADD_FAILURE() << name << " ran";
    } catch (const SpawnError& e) {
      EXPECT_EQ(std::string(e.what()), "cannot run " + name + " (No such file or directory)");
    }
  }
  Command other_file;  // `program` is what runs; argv[0] only the child's name for itself
  other_file.argv = {"sh", "-c", "exit 0"};
  other_file.program = "/nonexistent/sh";
  EXPECT_THROW(start(other_file), SpawnError);
}

// 1 MiB through `cat` both ways: more than a pipe holds (64 KiB), so writing all the input before reading
// any output would block both processes for ever.
TEST(Subprocess, InputAndOutputFlowTogether) {
  std::string input;
  for (int i = 0; input.size() < (1u << 20); ++i)
    input += "line " + std::to_string(i) + "\n";
  Command cat = piped({"cat"});
  cat.in = Stream::kPipe;
  const Output o = run(cat, input);
  EXPECT_TRUE(o.status.ok());
  EXPECT_EQ(o.out.size(), input.size());
  EXPECT_TRUE(o.out == input);
}

TEST(Subprocess, StartedChildInItsGroupWithAFileAndAPassedDescriptor) {
  const std::filesystem::path log =
      std::filesystem::temp_directory_path() / ("numagpu_subprocess_" + std::to_string(::getpid()) + ".log");
  int lock[2];
  ASSERT_EQ(::pipe(lock), 0);
  Command c;
  c.argv = {"sh", "-c", "echo to-out; echo to-err >&2; echo to-three >&3; exit 5"};
  c.in = Stream::kNull;
  c.out = Stream::kFile;
  c.out_file = log.string();
  c.err_to_out = true;
  c.pass_fds = {{lock[1], 3}};
  c.own_process_group = true;
  const pid_t pid = start(c);
  ::close(lock[1]);
  EXPECT_EQ(::getpgid(pid), pid);  // its own group (a zombie keeps it until reaped)
  std::optional<std::pair<pid_t, ExitStatus>> done;
  while (!(done = wait_any(/*block=*/true))) {
  }
  EXPECT_EQ(done->first, pid);
  EXPECT_EQ(done->second.code, 5);
  char buffer[64] = {};
  EXPECT_EQ(::read(lock[0], buffer, sizeof buffer - 1), 9);
  EXPECT_STREQ(buffer, "to-three\n");
  ::close(lock[0]);
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "to-out\nto-err\n");
  std::filesystem::remove(log);
  EXPECT_THROW(wait_any(/*block=*/true), std::system_error);  // no child left
}

}  // namespace
}  // namespace numagpu::subprocess

// libsystemc (linked through the program's library) needs an sc_main; gtest_main provides main(). A Release
// link may leave libsystemc out when nothing of it is used, a sanitizer build's does not.
extern "C" int sc_main(int, char*[]) {
  return 0;
}
