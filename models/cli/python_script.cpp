#include "cli/python_script.hpp"

#include <unistd.h>

#include <cstdlib>

#include "cli/subprocess.hpp"
#include "common/printable.hpp"

namespace numagpu {

std::string python_interpreter() {
  const char* chosen = std::getenv("NUMAGPU_PYTHON");
  if (chosen != nullptr && *chosen != '\0') return chosen;
  return ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

ScriptResult run_python_script(std::string_view script, const std::vector<std::string>& args,
                               bool keep_stdout) {
  ScriptResult result;
  result.interpreter = python_interpreter();
  subprocess::Command python;
  python.argv = {result.interpreter, "-"};
  python.argv.insert(python.argv.end(), args.begin(), args.end());
  python.in = subprocess::Stream::kPipe;
  python.out = keep_stdout ? subprocess::Stream::kInherit : subprocess::Stream::kNull;
  python.err = subprocess::Stream::kPipe;
  try {
    const subprocess::Output o = subprocess::run(python, script);
    result.exit_code = o.status.shell_code();
    result.error_text = o.err;
  } catch (const subprocess::SpawnError& e) {
    result.exit_code = 127;  // as a shell says a program it could not start
    result.error_text = std::string(e.what()) + "\n";
  }
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
