// Runs numagpu's embedded Python scripts (the plots): one way for every command, with no shell between
// numagpu and the interpreter, and failures reported with the script's own words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace numagpu {

struct ScriptResult {
  int exit_code = 0;       // the interpreter's exit status; 128 + N when signal N ended it, 127: not started
  std::string error_text;  // everything it wrote on standard error
};

// Runs `script` with Debian's python3 (/usr/bin/python3, where python3-matplotlib installs, even when
// another python3 comes first on PATH; else python3 from PATH) as `python3 - ARGS...`: the text on its
// standard input, `args` as its argv, its standard output passed through, its standard error kept for
// the caller (who passes it on after a success, so that warnings stay visible).
ScriptResult run_python_script(std::string_view script, const std::vector<std::string>& args);

// Why a script failed, in one line: that python3-matplotlib (or python3) is missing when that is what
// failed, else the last line the script wrote on standard error (its exception or its own message), with
// the exit status.
std::string script_failure(const ScriptResult& result);

}  // namespace numagpu
