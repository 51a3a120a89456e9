#include "cli/python_script.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
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

std::string python_interpreter() {
  const char* chosen = std::getenv("NUMAGPU_PYTHON");
  if (chosen != nullptr && *chosen != '\0') return chosen;
  return ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

ScriptResult run_python_script(std::string_view script, const std::vector<std::string>& args,
                               bool keep_stdout) {
  ScriptResult result;
  result.interpreter = python_interpreter();
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
  const int null_out = keep_stdout ? -1 : ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  std::vector<std::string> argv_text = {result.interpreter, "-"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {  // the child: only async-signal-safe calls until exec
    ::dup2(in[0], STDIN_FILENO);
    ::dup2(errp[1], STDERR_FILENO);
    if (null_out >= 0) ::dup2(null_out, STDOUT_FILENO);
    ::execvp(argv[0], argv.data());
    static const char kNoPython[] = "numagpu: cannot run python3\n";
    (void)!::write(STDERR_FILENO, kNoPython, sizeof kNoPython - 1);
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(errp[1]);
  if (null_out >= 0) ::close(null_out);
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

std::string script_failure(const ScriptResult& r, std::string_view name) {
  const std::string& e = r.error_text;
  const std::string status = r.exit_code > 128 ? "ended by signal " + std::to_string(r.exit_code - 128)
                                               : "exit " + std::to_string(r.exit_code);
  if (e.find("No module named 'matplotlib'") != std::string::npos)
    return "matplotlib is missing: it needs python3-matplotlib (scripts/setup.sh installs it) (" +
           printable(r.interpreter) + ", " + status + ")";
  std::vector<std::string> lines;
  std::size_t begin = 0;
  while (begin < e.size()) {
    std::size_t end = e.find('\n', begin);
    if (end == std::string::npos) end = e.size();
    const std::string line = e.substr(begin, end - begin);
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
    begin = end + 1;
  }
  std::string what = lines.empty() ? "no error message" : lines.back();
  // The traceback's last frame in the script, `  File "<stdin>", line N, in FUNCTION` (the script came on
  // standard input), told as scripts/NAME:N in FUNCTION.
  static const std::string kFrame = "File \"<stdin>\", line ";
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    const std::size_t at = it->find(kFrame);
    if (at == std::string::npos) continue;
    const std::string where = it->substr(at + kFrame.size());
    const std::size_t comma = where.find(',');
    what += " (scripts/" + std::string(name) + ":" + where.substr(0, comma) +
            (comma == std::string::npos ? std::string() : where.substr(comma + 1)) + ")";
    break;
  }
  return printable(what) + " (" + printable(r.interpreter) + ", " + status + ")";
}

}  // namespace numagpu
