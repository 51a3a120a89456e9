// Runs numagpu's embedded Python scripts (the plots of plot power/study/sweep, bench-fabric --plot and
// correlate): one way for every command, with no shell between numagpu and the interpreter, and failures
// reported with the script's own words.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace numagpu {

struct ScriptResult {
  int exit_code = 0;        // the interpreter's exit status; 128 + N when signal N ended it, 127: not started
  std::string error_text;   // everything it wrote on standard error
  std::string interpreter;  // the python3 that ran it
};

// The interpreter: $NUMAGPU_PYTHON when set (tests use it to fake a broken one), else Debian's
// /usr/bin/python3 (where python3-matplotlib installs, even when another python3 comes first on PATH), else
// python3 from PATH.
std::string python_interpreter();

// Runs `script` as `python3 - ARGS...`: the text on its standard input, `args` as its argv (no shell: any
// path goes), its standard output passed through (or discarded when `keep_stdout` is false), its standard
// error kept for the caller (who passes it on after a success, so that warnings stay visible).
ScriptResult run_python_script(std::string_view script, const std::vector<std::string>& args,
                               bool keep_stdout = true);

// Why the script `name` (scripts/NAME) failed, in one line: that python3-matplotlib is missing when its
// import is what failed; else the last line the script wrote on standard error (its exception or its own
// message), where in the script a traceback says it was raised (scripts/NAME:LINE in FUNCTION), and the
// interpreter with its exit status.
std::string script_failure(const ScriptResult& result, std::string_view name);

}  // namespace numagpu
