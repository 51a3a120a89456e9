// Runs a program as a child process with no shell in between: argv reaches the program as given (spaces,
// quotes and `$` are plain bytes), its standard streams go where the caller says, and how it ended comes back
// as an exit status or the signal that ended it. The one way the CLI starts processes: correlate's kernel
// runs, the sweep's points and the embedded plot scripts (cli/python_script.hpp).
#pragma once

#include <sys/types.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace numagpu::subprocess {

// The program could not be started (not found, not executable, no process left): what() names it and why.
class SpawnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where one of the child's standard streams goes.
enum class Stream {
  kInherit,  // numagpu's own
  kNull,     // /dev/null
  kFile,     // Command::out_file, created or truncated (standard output only)
  kPipe,     // fed from or collected into a string by run() (not start())
};

struct Command {
  std::vector<std::string> argv;  // argv[0] is what the child sees as its name
  std::string program;            // the file executed; empty: argv[0], looked up on PATH when it holds no '/'
  Stream in = Stream::kInherit, out = Stream::kInherit, err = Stream::kInherit;
  std::string out_file;     // with out == kFile
  bool err_to_out = false;  // standard error goes where standard output goes (err is then ignored)
  // Descriptors the child keeps, each (numagpu's descriptor, its number in the child): a lock the child
  // must hold as long as it lives, say. Every other descriptor of numagpu's is closed on exec.
  std::vector<std::pair<int, int>> pass_fds;
  // The child in a process group of its own: a terminal's Ctrl-C reaches it only when numagpu forwards it.
  bool own_process_group = false;
};

// How a child ended: exited with `code`, or ended by `signal`.
struct ExitStatus {
  int code = 0;
  int signal = 0;
  // The child's user plus system CPU time, where the wait reports it (wait_any): on a shared machine a
  // point's wall time says more about its neighbours than about its own cost.
  double cpu_seconds = 0;
  bool ok() const { return signal == 0 && code == 0; }
  // As a shell reports it: the exit code, or 128 + the signal.
  int shell_code() const { return signal != 0 ? 128 + signal : code; }
  // "exit N" or "killed by signal N".
  std::string text() const;
};

// Starts `command` and returns at once with the child's pid (kPipe streams need run()); throws SpawnError.
pid_t start(const Command& command);

// Waits for any child of numagpu to end and reaps it. nullopt when none has ended yet and `block` is false,
// or when a signal handled without SA_RESTART interrupted the wait (the caller looks at its flags and waits
// again). Throws std::system_error when there is no child to wait for.
std::optional<std::pair<pid_t, ExitStatus>> wait_any(bool block);

// Runs `command` to its end: `input` written to its standard input when `in` is kPipe (then closed), what it
// writes on kPipe standard output and error collected, all at once so that neither side blocks the other.
// Throws SpawnError.
struct Output {
  ExitStatus status;
  std::string out, err;
};
Output run(const Command& command, std::string_view input = {});

}  // namespace numagpu::subprocess
