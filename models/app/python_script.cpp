#include "app/python_script.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/printable.hpp"

namespace numagpu {

namespace {

// Writes all of `text` to `fd` (retrying short writes and EINTR); false when the reader went away.
bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

ScriptResult run_python_script(std::string_view script, const std::vector<std::string>& args) {
  ScriptResult result;
  int in[2], errp[2];
  if (::pipe2(in, O_CLOEXEC) != 0) {
    result.exit_code = 127;
    result.error_text = std::string("cannot make a pipe: ") + std::strerror(errno) + "\n";
    return result;
  }
  if (::pipe2(errp, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    result.exit_code = 127;
    result.error_text = std::string("cannot make a pipe: ") + std::strerror(errno) + "\n";
    return result;
  }
  const char* python = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  std::vector<std::string> argv_text = {python, "-"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(errp[1], STDERR_FILENO);
    ::execvp(python, argv.data());
    static const char kNoPython[] = "numagpu: cannot run python3\n";
    (void)!::write(STDERR_FILENO, kNoPython, sizeof kNoPython - 1);
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(errp[1]);
  if (pid < 0) {
    ::close(in[1]);
    ::close(errp[0]);
    result.exit_code = 127;
    result.error_text = std::string("cannot start python3: ") + std::strerror(errno) + "\n";
    return result;
  }
  // python3 - reads all of its standard input before it runs a line, so the script goes in whole before
  // anything comes back on standard error: no deadlock. A broken pipe (python3 gone) is seen as a failed
  // write, not as SIGPIPE.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  write_all(in[1], script);
  ::close(in[1]);
  ::sigaction(SIGPIPE, &previous, nullptr);
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(errp[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    result.error_text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(errp[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string script_failure(const ScriptResult& r) {
  const std::string& e = r.error_text;
  if (r.exit_code == 127 && e.find("cannot run python3") != std::string::npos)
    return "python3 is not installed (scripts/setup.sh installs it)";
  if (e.find("No module named 'matplotlib'") != std::string::npos)
    return "python3-matplotlib is not installed (scripts/setup.sh installs it)";
  // The last non-empty line: a traceback's exception, or the script's own one-line message.
  std::string last;
  const std::size_t end = e.find_last_not_of(" \n\r\t");
  if (end != std::string::npos) {
    const std::size_t newline = e.find_last_of('\n', end);
    const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
    last = e.substr(begin, end + 1 - begin);
  }
  const std::string status = r.exit_code > 128 ? "ended by signal " + std::to_string(r.exit_code - 128)
                                               : "exit " + std::to_string(r.exit_code);
  return "the plot script failed (" + status + ")" + (last.empty() ? "" : ": " + printable(last));
}

}  // namespace numagpu
