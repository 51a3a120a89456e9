#include "cli/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

extern char** environ;

namespace numagpu::subprocess {

namespace {

ExitStatus decode(int wait_status) {
  ExitStatus s;
  if (WIFEXITED(wait_status)) {
    s.code = WEXITSTATUS(wait_status);
  } else if (WIFSIGNALED(wait_status)) {
    s.signal = WTERMSIG(wait_status);
  } else {
    s.code = 128;  // neither: not reported without WUNTRACED, kept as a failure all the same
  }
  return s;
}

// A pipe whose two ends are closed on exec (the child's end is dup2'ed to its standard stream, which clears
// that); the descriptors are closed by the destructor unless taken.
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
      throw SpawnError(std::string("cannot make a pipe: ") + std::strerror(errno));
    read = fds[0], write = fds[1];
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

// The program's name in messages.
std::string program_of(const Command& c) {
  return !c.program.empty() ? c.program : c.argv.empty() ? std::string("(no program)") : c.argv.front();
}

// Starts `c`; the kPipe streams connect to the given descriptors (the child's ends: stdin's read end,
// stdout's and stderr's write ends).
pid_t spawn(const Command& c, int in_fd, int out_fd, int err_fd) {
  if (c.argv.empty()) throw SpawnError("cannot run a program without a name (empty argv)");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  auto stream = [&](Stream s, int fd, int pipe_fd, int open_flags) {
    if (s == Stream::kNull) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", open_flags, 0);
    if (s == Stream::kFile)
      posix_spawn_file_actions_addopen(&actions, fd, c.out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (s == Stream::kPipe) posix_spawn_file_actions_adddup2(&actions, pipe_fd, fd);
  };
  stream(c.in, STDIN_FILENO, in_fd, O_RDONLY);
  stream(c.out, STDOUT_FILENO, out_fd, O_WRONLY);
  if (c.err_to_out) {
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  } else {
    stream(c.err, STDERR_FILENO, err_fd, O_WRONLY);
  }
  for (const auto& [from, to] : c.pass_fds)
    posix_spawn_file_actions_adddup2(&actions, from, to);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (c.own_process_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  std::vector<char*> argv;
  for (const std::string& a : c.argv)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  // glibc's posix_spawn reports a failed exec (a missing program) as its result, so the caller learns why.
  const int rc =
      c.program.empty()
          ? ::posix_spawnp(&pid, c.argv.front().c_str(), &actions, &attributes, argv.data(), environ)
          : ::posix_spawn(&pid, c.program.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) throw SpawnError("cannot run " + program_of(c) + " (" + std::strerror(rc) + ")");
  return pid;
}

ExitStatus wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "waiting for a child");
  }
  return decode(status);
}

}  // namespace

std::string ExitStatus::text() const {
  return signal != 0 ? "killed by signal " + std::to_string(signal) : "exit " + std::to_string(code);
}

pid_t start(const Command& command) {
  if (command.in == Stream::kPipe || command.out == Stream::kPipe || command.err == Stream::kPipe)
    throw SpawnError("subprocess::start: " + program_of(command) + ": a piped stream needs subprocess::run");
  return spawn(command, -1, -1, -1);
}

std::optional<std::pair<pid_t, ExitStatus>> wait_any(bool block) {
  int status = 0;
  rusage usage{};
  const pid_t pid = ::wait4(-1, &status, block ? 0 : WNOHANG, &usage);
  if (pid == 0) return std::nullopt;
  if (pid < 0) {
    if (errno == EINTR) return std::nullopt;
    throw std::system_error(errno, std::generic_category(), "waiting for a child");
  }
  ExitStatus s = decode(status);
  const auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  s.cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  return std::pair{pid, s};
}

Output run(const Command& command, std::string_view input) {
  std::optional<Pipe> in, out, err;
  if (command.in == Stream::kPipe) in.emplace();
  if (command.out == Stream::kPipe) out.emplace();
  if (command.err == Stream::kPipe && !command.err_to_out) err.emplace();
  const pid_t pid = spawn(command, in ? in->read : -1, out ? out->write : -1, err ? err->write : -1);
  if (in) in->close_read();
  if (out) out->close_write();
  if (err) err->close_write();

  // Feed and drain together, so that a child writing much before it has read all its input cannot block
  // us both. A child gone before reading everything is seen as a failed write, not as SIGPIPE.
  Output result;
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  if (in && input.empty()) in->close_write();
  if (in && in->write >= 0) ::fcntl(in->write, F_SETFL, O_NONBLOCK);
  struct Reader {
    Pipe* pipe;
    std::string* text;
  };
  for (;;) {
    pollfd fds[3];
    Reader readers[3];
    nfds_t n = 0;
    if (in && in->write >= 0) readers[n] = {nullptr, nullptr}, fds[n++] = {in->write, POLLOUT, 0};
    if (out && out->read >= 0) readers[n] = {&*out, &result.out}, fds[n++] = {out->read, POLLIN, 0};
    if (err && err->read >= 0) readers[n] = {&*err, &result.err}, fds[n++] = {err->read, POLLIN, 0};
    if (n == 0) break;
    if (::poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (readers[i].pipe == nullptr) {  // the child's standard input
        const ssize_t w = ::write(in->write, input.data(), input.size());
        if (w > 0) input.remove_prefix(static_cast<std::size_t>(w));
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || input.empty()) in->close_write();
        continue;
      }
      char buffer[4096];
      const ssize_t r = ::read(readers[i].pipe->read, buffer, sizeof buffer);
      if (r > 0) {
        readers[i].text->append(buffer, static_cast<std::size_t>(r));
      } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
        readers[i].pipe->close_read();
      }
    }
  }
  ::sigaction(SIGPIPE, &previous, nullptr);
  result.status = wait_for(pid);
  return result;
}

}  // namespace numagpu::subprocess
