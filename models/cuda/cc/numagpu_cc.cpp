// numagpu-cc: builds CUDA programs (.cu, plus plain .c/.cpp/.o) into host executables that run on numagpu's
// simulated GPU, with Debian's clang 14 and no NVIDIA toolkit (docs/cuda.md, "Compiling CUDA programs").
//
// Per .cu file: the device side to PTX (clang --cuda-device-only -S), then the host side with that PTX
// embedded (-fcuda-include-gpubinary: clang's registration constructor hands it to __cudaRegisterFatBinary)
// and the <<<>>> launches lowered to the runtime's entry points; finally a link against numagpu's CUDA
// runtime library, libnumagpu_cudart.so, with an RPATH to it.
//
// A small C++ program rather than a shell script: arguments with spaces pass through untouched (each command
// is an argv, no shell), the temporary PTX is cleaned up on every path, and the installed layout is found
// from the program's own location without a shell's quoting pitfalls.
#include <limits.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace {

// Where things are, configured by CMake (models/cuda/compile.cmake): the build tree's absolute paths, and the
// installed layout relative to the installed bin directory.
#ifndef NUMAGPU_CC_CLANG
#define NUMAGPU_CC_CLANG "clang++-14"
#endif
#ifndef NUMAGPU_CC_CLANG_C
#define NUMAGPU_CC_CLANG_C "clang-14"
#endif
#ifndef NUMAGPU_CC_BUILD_INCLUDE
#define NUMAGPU_CC_BUILD_INCLUDE ""
#endif
#ifndef NUMAGPU_CC_BUILD_CUDART_DIR
#define NUMAGPU_CC_BUILD_CUDART_DIR ""
#endif
#ifndef NUMAGPU_CC_INSTALL_INCLUDE
#define NUMAGPU_CC_INSTALL_INCLUDE "../include/numagpu/cuda"
#endif
#ifndef NUMAGPU_CC_INSTALL_LIBDIR
#define NUMAGPU_CC_INSTALL_LIBDIR "../lib"
#endif

// A failure with the message already printed (clang's own) or to print: the exit status to leave with.
struct Exit {
  int status;
};

[[noreturn]] void fail(const std::string& line, int status = 2) {
  std::fprintf(stderr, "numagpu-cc: %s\n", line.c_str());
  throw Exit{status};
}

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

std::string stem_of(const std::string& path) {
  auto slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string extension_of(const std::string& path) {
  auto slash = path.rfind('/');
  auto dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The include directory with cuda_runtime.h and the directory of libnumagpu_cudart.so: the installed layout
// beside this program's own location when it is there, the build tree's otherwise.
struct Layout {
  std::string include_dir, cudart_dir;
};

std::string canonical(const std::string& path) {
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) ? std::string(resolved) : path;
}

std::string relative_to(const std::string& base, const std::string& path) {
  return path.empty() || path[0] == '/' ? path : base + "/" + path;
}

Layout find_layout() {
  char self[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    std::string bin = directory_of(self);
    std::string installed_include = relative_to(bin, NUMAGPU_CC_INSTALL_INCLUDE);
    if (exists(installed_include + "/cuda_runtime.h"))
      return {canonical(installed_include), canonical(relative_to(bin, NUMAGPU_CC_INSTALL_LIBDIR))};
  }
  return {NUMAGPU_CC_BUILD_INCLUDE, NUMAGPU_CC_BUILD_CUDART_DIR};
}

std::string quoted(const std::string& arg) {
  if (!arg.empty() && arg.find_first_of(" \t\n'\"\\$*?;&|<>()") == std::string::npos) return arg;
  std::string out = "'";
  for (char c : arg)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs argv (no shell), its output and errors going to ours; a failure exits with its status.
void run(const std::vector<std::string>& argv, bool verbose) {
  if (verbose) {
    std::string line;
    for (const auto& a : argv)
      line += (line.empty() ? "" : " ") + quoted(a);
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::vector<char*> args;
  for (const auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int err = ::posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (err != 0) fail("cannot run " + argv[0] + ": " + std::strerror(err), 127);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) fail(std::string("waiting for ") + argv[0] + ": " + std::strerror(errno), 127);
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  throw Exit{WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)};
}

// A temporary directory for the PTX and objects, removed on every path out.
class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string templ = std::string(base && *base ? base : "/tmp") + "/numagpu-cc.XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data()))
      fail("cannot create a temporary directory in " + templ + ": " + std::strerror(errno));
    path_ = buf.data();
  }
  ~TempDir() {
    for (const auto& f : files_)
      ::unlink(f.c_str());
    ::rmdir(path_.c_str());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) {
    files_.push_back(path_ + "/" + name);
    return files_.back();
  }

 private:
  std::string path_;
  std::vector<std::string> files_;
};

enum class Kind { kCuda, kCxx, kC, kLinkInput };

struct Options {
  std::vector<std::string> inputs;
  std::string output;
  bool compile_only = false, verbose = false;
  std::string arch = "sm_70";
  std::string keep_ptx_dir;
  std::string cudart_dir;               // --cudart-dir: where libnumagpu_cudart.so is (default: the layout's)
  std::vector<std::string> preprocess;  // -I -D -U -isystem
  std::vector<std::string> optimize;    // -O*; the device side defaults to -O3 as nvcc's does
  std::vector<std::string> cxx_std, c_std;
  std::vector<std::string> warnings;  // -W* (not -Wl,)
  std::vector<std::string> features;  // -f*, -g, -pthread: compile and link
  std::vector<std::string> link;      // -l -L -Wl,
};

const char* kUsage =
    "usage: numagpu-cc [options] files...\n"
    "  files: .cu (CUDA), .cpp/.cc/.cxx/.C (C++), .c (C), .o/.a/.so (linked as they are)\n"
    "  -o FILE  -c  -I DIR  -D NAME[=V]  -U NAME  -isystem DIR  -O*  -g  -std=*  -l LIB  -L DIR  -W*  -f*  "
    "-pthread\n"
    "  -arch=sm_XX (also -arch sm_XX, --cuda-gpu-arch=sm_XX, compute_XX; default sm_70)\n"
    "  --keep-ptx DIR   keep each .cu file's PTX as DIR/<name>.ptx\n"
    "  --cudart-dir DIR link against DIR/libnumagpu_cudart.so (default: numagpu's own)\n"
    "  -v               print the commands\n";

std::string architecture(const std::string& value) {
  std::string arch = value;
  if (starts_with(arch, "compute_")) arch = "sm_" + arch.substr(8);
  if (!starts_with(arch, "sm_") || arch.size() < 5 ||
      arch.find_first_not_of("0123456789", 3) != std::string::npos)
    fail("-arch: '" + value + "' is not an architecture (expected sm_XX or compute_XX, e.g. sm_70)");
  return arch;
}

Options parse(int argc, char** argv) {
  Options o;
  auto value = [&](int& i, const std::string& arg, size_t prefix) -> std::string {
    if (arg.size() > prefix) return arg.substr(prefix);
    if (i + 1 >= argc) fail("option '" + arg + "' needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      throw Exit{0};
    } else if (a == "-o") {
      o.output = value(i, a, 2);
    } else if (starts_with(a, "-o") && a.size() > 2) {
      o.output = a.substr(2);
    } else if (a == "-c") {
      o.compile_only = true;
    } else if (a == "-v") {
      o.verbose = true;
    } else if (starts_with(a, "-I") || starts_with(a, "-D") || starts_with(a, "-U")) {
      o.preprocess.push_back(a.substr(0, 2) + value(i, a, 2));
    } else if (a == "-isystem") {
      o.preprocess.push_back(a);
      o.preprocess.push_back(value(i, a, 8));
    } else if (starts_with(a, "-O")) {
      o.optimize.push_back(a);
    } else if (a == "-g" || a == "-pthread" || (starts_with(a, "-f") && a.size() > 2)) {
      o.features.push_back(a);
    } else if (starts_with(a, "-std=")) {
      std::string s = a.substr(5);
      (starts_with(s, "c++") || starts_with(s, "gnu++") ? o.cxx_std : o.c_std).push_back(a);
    } else if (starts_with(a, "-l") || starts_with(a, "-L")) {
      o.link.push_back(a.substr(0, 2) + value(i, a, 2));
    } else if (starts_with(a, "-Wl,")) {
      o.link.push_back(a);
    } else if (starts_with(a, "-W") && a.size() > 2) {
      o.warnings.push_back(a);
    } else if (a == "-arch" || a == "--gpu-architecture") {
      o.arch = architecture(value(i, a, a.size()));
    } else if (starts_with(a, "-arch=") || starts_with(a, "--cuda-gpu-arch=") ||
               starts_with(a, "--gpu-architecture=")) {
      o.arch = architecture(a.substr(a.find('=') + 1));
    } else if (a == "--keep-ptx" || starts_with(a, "--keep-ptx=")) {
      o.keep_ptx_dir = a == "--keep-ptx" ? value(i, a, a.size()) : a.substr(11);
    } else if (a == "--cudart-dir" || starts_with(a, "--cudart-dir=")) {
      o.cudart_dir = a == "--cudart-dir" ? value(i, a, a.size()) : a.substr(13);
    } else if (a.size() > 1 && a[0] == '-') {
      fail("unknown option '" + a + "' (numagpu-cc --help lists the options)");
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.inputs.empty()) fail("no input files (numagpu-cc --help lists the options)");
  return o;
}

Kind kind_of(const std::string& path) {
  std::string ext = extension_of(path);
  if (ext == ".cu") return Kind::kCuda;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C" || ext == ".c++") return Kind::kCxx;
  if (ext == ".c") return Kind::kC;
  if (ext == ".o" || ext == ".a" || ext == ".so" || starts_with(ext, ".so.")) return Kind::kLinkInput;
  fail("'" + path + "': unknown kind of file (expected .cu, .cpp, .cc, .cxx, .c, .o, .a or .so)");
}

void append(std::vector<std::string>& to, const std::vector<std::string>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

// The flags every CUDA compilation shares: clang in CUDA mode as on a machine without the toolkit
// (--cuda-path=/nonexistent), numagpu's header instead of NVIDIA's.
std::vector<std::string> cuda_common(const Options& o, const Layout& layout) {
  std::vector<std::string> args = {NUMAGPU_CC_CLANG,
                                   "-x",
                                   "cuda",
                                   "--cuda-path=/nonexistent",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "--cuda-gpu-arch=" + o.arch,
                                   "-I" + layout.include_dir,
                                   "-include",
                                   "cuda_runtime.h"};
  append(args, o.preprocess);
  append(args, o.cxx_std);
  append(args, o.warnings);
  return args;
}

// One .cu file: its PTX, then the host object embedding it.
void compile_cuda(const Options& o, const Layout& layout, const std::string& source,
                  const std::string& object, TempDir& temp) {
  std::string ptx = o.keep_ptx_dir.empty() ? temp.file(stem_of(source) + ".ptx")
                                           : o.keep_ptx_dir + "/" + stem_of(source) + ".ptx";
  std::vector<std::string> device = cuda_common(o, layout);
  device.push_back("--cuda-device-only");
  // Optimized device code by default, as nvcc's; no -g on the device side (debug sections in the PTX
  // serve no simulated debugger).
  if (o.optimize.empty()) device.push_back("-O3");
  append(device, o.optimize);
  for (const auto& f : o.features)
    if (f != "-g" && f != "-pthread") device.push_back(f);
  device.insert(device.end(), {"-S", source, "-o", ptx});
  run(device, o.verbose);

  std::vector<std::string> host = cuda_common(o, layout);
  // sdk 11.0: <<<>>> lowers to __cudaPushCallConfiguration / __cudaPopCallConfiguration / cudaLaunchKernel,
  // the ABI of nvcc's runtime since CUDA 9.2.
  host.insert(host.end(), {"--cuda-host-only", "-Xclang", "-target-sdk-version=11.0", "-Xclang",
                           "-fcuda-include-gpubinary", "-Xclang", ptx});
  append(host, o.optimize);
  append(host, o.features);
  host.insert(host.end(), {"-c", source, "-o", object});
  run(host, o.verbose);
}

void compile_plain(const Options& o, Kind kind, const std::string& source, const std::string& object) {
  std::vector<std::string> args = {kind == Kind::kC ? NUMAGPU_CC_CLANG_C : NUMAGPU_CC_CLANG};
  append(args, o.preprocess);
  append(args, kind == Kind::kC ? o.c_std : o.cxx_std);
  append(args, o.warnings);
  append(args, o.optimize);
  append(args, o.features);
  args.insert(args.end(), {"-c", source, "-o", object});
  run(args, o.verbose);
}

int drive(int argc, char** argv) {
  Options o = parse(argc, argv);
  Layout layout = find_layout();
  if (layout.include_dir.empty() || !exists(layout.include_dir + "/cuda_runtime.h"))
    fail("cannot find numagpu's cuda_runtime.h (looked in '" + layout.include_dir + "')");
  if (!o.keep_ptx_dir.empty() && !exists(o.keep_ptx_dir))
    fail("--keep-ptx: no directory '" + o.keep_ptx_dir + "'");

  std::vector<std::pair<std::string, Kind>> inputs;
  size_t sources = 0;
  for (const auto& in : o.inputs) {
    inputs.emplace_back(in, kind_of(in));
    if (inputs.back().second != Kind::kLinkInput) ++sources;
  }
  if (o.compile_only && !o.output.empty() && sources > 1)
    fail("-o with -c names one object, but there are " + std::to_string(sources) + " source files");

  TempDir temp;
  std::vector<std::string> objects;
  for (const auto& [path, kind] : inputs) {
    if (kind == Kind::kLinkInput) {
      objects.push_back(path);
      continue;
    }
    if (!exists(path)) fail("'" + path + "': no such file");
    std::string object = o.compile_only
                             ? (o.output.empty() ? stem_of(path) + ".o" : o.output)
                             : temp.file(stem_of(path) + "." + std::to_string(objects.size()) + ".o");
    if (kind == Kind::kCuda)
      compile_cuda(o, layout, path, object, temp);
    else
      compile_plain(o, kind, path, object);
    objects.push_back(object);
  }
  if (o.compile_only) return 0;

  std::string cudart_dir = o.cudart_dir.empty() ? layout.cudart_dir : canonical(o.cudart_dir);
  if (cudart_dir.empty() || !exists(cudart_dir + "/libnumagpu_cudart.so"))
    fail("cannot find libnumagpu_cudart.so (looked in '" + cudart_dir +
         "'; --cudart-dir names another place)");
  std::vector<std::string> link = {NUMAGPU_CC_CLANG};
  append(link, o.features);
  append(link, objects);
  append(link, o.link);
  link.insert(link.end(), {"-L" + cudart_dir, "-lnumagpu_cudart", "-Wl,-rpath," + cudart_dir, "-o",
                           o.output.empty() ? "a.out" : o.output});
  run(link, o.verbose);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return drive(argc, argv);
  } catch (const Exit& e) {
    return e.status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "numagpu-cc: %s\n", e.what());
    return 2;
  }
}
