#include "kernels/metis_graph.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <limits>

namespace numagpu::kernels {

namespace {

std::atomic<InterruptCheck> g_interrupt_check{nullptr};

// Bytes read or parsed between two interrupt checks: a fraction of a second's work.
constexpr std::size_t kCheckBytes = std::size_t(4) << 20;

void check_interrupt(const std::string& name) {
  const InterruptCheck check = g_interrupt_check.load();
  if (check && check()) throw GraphInterrupted(name + ": reading interrupted");
}

// The lines of a METIS file, comments skipped, with their numbers for errors. From a text, or from a stream
// read kCheckBytes at a time: the buffer holds the line being read and what follows it in the last chunk, so
// memory follows the longest line, not the file (a comment line's bytes are dropped as they come, and a line
// that is not a comment fails at its first byte that cannot belong to it).
class Lines {
 public:
  Lines(const std::string& text, const std::string& name) : buf_(text), name_(name), eof_(true) {}
  Lines(int fd, const std::string& name) : fd_(fd), name_(name) {}
  // The next line that is not a comment; false at the end of the text. [begin, end) index text(), valid
  // until the next call.
  bool next(std::size_t& begin, std::size_t& end) {
    for (;;) {
      std::size_t nl = buf_.find('\n', scan_);
      if (nl == std::string::npos) {
        if (!eof_) {
          partial();
          continue;
        }
        if (pos_ >= buf_.size()) return false;
        nl = buf_.size();
      }
      begin = pos_;
      end = nl;
      pos_ = scan_ = nl + 1;
      ++line_;
      if (pos_ >= next_check_) {  // a text given whole: look at the interrupt flag as it is parsed
        next_check_ = pos_ + kCheckBytes;
        check_interrupt(name_);
      }
      if (end > begin && buf_[end - 1] == '\r') --end;
      if (end > begin && buf_[begin] == '%') continue;
      return true;
    }
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw GraphError(name_ + ":" + std::to_string(line_) + ": " + what);
  }
  const std::string& text() const { return buf_; }
  std::size_t line() const { return line_; }

 private:
  // The current line has no end in the buffer yet: check what it has, then read more.
  void partial() {
    if (pos_ < buf_.size() && buf_[pos_] == '%') {
      buf_.resize(pos_ + 1);  // a comment: only its '%' matters
    } else {
      for (std::size_t i = scan_; i < buf_.size(); ++i) {
        const char c = buf_[i];
        if ((c < '0' || c > '9') && c != ' ' && c != '\t' && c != '\r') {
          // What numbers() says of the whole line, at the line's number.
          ++line_;
          std::vector<std::uint64_t> unused;
          numbers_of(pos_, i + 1, unused);
          --line_;
        }
      }
    }
    scan_ = buf_.size();
    if (pos_ > 0) {  // lines before the current one are done with
      buf_.erase(0, pos_);
      scan_ -= pos_;
      pos_ = 0;
    }
    const std::size_t had = buf_.size();
    buf_.resize(had + kCheckBytes);
    ssize_t got = 0;
    do {
      got = ::read(fd_, &buf_[had], kCheckBytes);
    } while (got < 0 && errno == EINTR);
    if (got < 0) throw GraphError(name_ + ": cannot be read (" + std::strerror(errno) + ")");
    buf_.resize(had + std::size_t(got));
    if (got == 0) eof_ = true;
    next_check_ = std::numeric_limits<std::size_t>::max();  // the reads look instead
    check_interrupt(name_);
  }
  void numbers_of(std::size_t begin, std::size_t end, std::vector<std::uint64_t>& out) const;

  int fd_ = -1;
  std::string buf_;
  const std::string& name_;
  bool eof_ = false;
  std::size_t pos_ = 0, scan_ = 0, line_ = 0, next_check_ = kCheckBytes;
};

// A byte as an error shows it: 'x' if printable, else its code (a NUL would end the message, a control byte
// upset the terminal).
std::string shown(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  const char* digits = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  return std::string("byte 0x") + digits[u >> 4] + digits[u & 15];
}

// Non-negative integers of one line, in order. Anything else (signs, letters, fractions) is an error.
void numbers(const Lines& lines, std::size_t begin, std::size_t end, std::vector<std::uint64_t>& out) {
  out.clear();
  const std::string& t = lines.text();
  std::size_t i = begin;
  while (i < end) {
    const char ch = t[i];
    if (ch == ' ' || ch == '\t') {
      ++i;
      continue;
    }
    if (ch < '0' || ch > '9') lines.fail(shown(ch) + " where a number was expected");
    std::uint64_t v = 0;
    while (i < end && t[i] >= '0' && t[i] <= '9') {
      v = v * 10 + std::uint64_t(t[i] - '0');
      if (v > (std::uint64_t(1) << 40)) lines.fail("a number larger than 2^40");
      ++i;
    }
    if (i < end && t[i] != ' ' && t[i] != '\t') lines.fail(shown(t[i]) + " inside a number");
    out.push_back(v);
  }
}

void Lines::numbers_of(std::size_t begin, std::size_t end, std::vector<std::uint64_t>& out) const {
  numbers(*this, begin, end, out);
}

}  // namespace

namespace {

// `text_bytes`: the size of a text given whole, which bounds what is reserved ahead; 0 for a stream, whose
// arrays grow as its lines are read.
CsrGraph parse(Lines& lines, const std::string& name, const GraphLimits& limits, std::uint64_t text_bytes) {
  std::size_t b = 0, e = 0;
  std::vector<std::uint64_t> nums;
  // The header: the first line that is neither a comment nor blank.
  do {
    if (!lines.next(b, e)) throw GraphError(name + ": no header line (n m [fmt [ncon]])");
    numbers(lines, b, e, nums);
  } while (nums.empty());
  if (nums.size() < 2 || nums.size() > 4) lines.fail("the header is n m [fmt [ncon]]");
  const std::uint64_t n = nums[0], m = nums[1];
  if (n == 0) lines.fail("a graph of no vertex");
  if (n >= kMaxGraphEntries) lines.fail(std::to_string(n) + " vertices, more than 2^28");
  if (2 * m > kMaxGraphEntries) lines.fail(std::to_string(m) + " edges, more than 2^27");
  std::uint64_t fmt = nums.size() > 2 ? nums[2] : 0;
  // fmt is three decimal digits, each 0 or 1: vertex sizes, vertex weights, edge weights.
  if (fmt != 0 && fmt != 1 && fmt != 10 && fmt != 11 && fmt != 100 && fmt != 101 && fmt != 110 && fmt != 111)
    lines.fail("fmt " + std::to_string(fmt) + " is not three digits of 0 or 1");
  const bool has_size = fmt >= 100, has_vwgt = (fmt / 10) % 10 == 1, has_ewgt = fmt % 10 == 1;
  std::uint64_t ncon = has_vwgt ? 1 : 0;
  if (nums.size() == 4) {
    if (!has_vwgt && nums[3] != 0) lines.fail("ncon is given but fmt says there are no vertex weights");
    ncon = nums[3];
    if (ncon > 1024) lines.fail("ncon " + std::to_string(ncon) + " is more than 1024");
  }
  const std::uint64_t lead = (has_size ? 1 : 0) + ncon;

  CsrGraph g;
  g.vertices = static_cast<std::uint32_t>(n);
  g.has_edge_weights = has_ewgt;
  // No more vertices than the text has lines, no more entries than it can hold (two characters a number): a
  // header cannot size memory alone.
  g.row_ptr.reserve(std::min<std::uint64_t>(n + 1, text_bytes + 2));
  g.row_ptr.push_back(0);
  const std::uint64_t room = std::min<std::uint64_t>(2 * m, text_bytes / 2 + 1);
  g.col.reserve(room);
  g.weight.reserve(room);
  for (std::uint64_t v = 0; v < n; ++v) {
    if (!lines.next(b, e))
      throw GraphError(name + ":" + std::to_string(lines.line()) + ": the file ends after " +
                       std::to_string(v) + " of " + std::to_string(n) + " vertex lines");
    numbers(lines, b, e, nums);
    if (nums.size() < lead) lines.fail("vertex " + std::to_string(v + 1) + " lacks its size or weights");
    const std::size_t per = has_ewgt ? 2 : 1;
    if ((nums.size() - lead) % per != 0) lines.fail("a neighbour without its edge weight");
    for (std::size_t i = lead; i < nums.size(); i += per) {
      const std::uint64_t u = nums[i];
      if (u < 1 || u > n)
        lines.fail("neighbour " + std::to_string(u) + " is outside 1.." + std::to_string(n));
      if (u == v + 1)
        lines.fail("vertex " + std::to_string(u) + " lists itself (METIS graphs have no loops)");
      if (g.col.size() >= 2 * m)
        lines.fail("more neighbours than the header's " + std::to_string(m) +
                   " edges allow (2 m = " + std::to_string(2 * m) + ")");
      g.col.push_back(static_cast<std::uint32_t>(u - 1));
      if (has_ewgt) {
        if (nums[i + 1] > 0x7fffffff) lines.fail("an edge weight larger than 2^31 - 1");
        if (nums[i + 1] > limits.max_edge_weight)
          lines.fail("an edge weight of " + std::to_string(nums[i + 1]) + ", more than " +
                     std::to_string(limits.max_edge_weight) + (limits.why.empty() ? "" : " ") + limits.why);
        g.weight.push_back(static_cast<std::int32_t>(nums[i + 1]));
      } else {
        g.weight.push_back(1);
      }
    }
    g.row_ptr.push_back(static_cast<std::uint32_t>(g.col.size()));
  }
  if (g.col.size() != 2 * m)
    lines.fail("the vertex lines list " + std::to_string(g.col.size()) + " neighbours; the header's " +
               std::to_string(m) + " edges need 2 m = " + std::to_string(2 * m));
  while (lines.next(b, e)) {
    numbers(lines, b, e, nums);
    if (!nums.empty()) lines.fail("a line after the last vertex's");
  }
  return g;
}

}  // namespace

CsrGraph parse_metis_graph(const std::string& text, const std::string& name, const GraphLimits& limits) {
  Lines lines(text, name);
  return parse(lines, name, limits, text.size());
}

void set_graph_interrupt_check(InterruptCheck check) {
  g_interrupt_check.store(check);
}

bool interrupt_requested() {
  const InterruptCheck check = g_interrupt_check.load();
  return check != nullptr && check();
}

CsrGraph read_metis_graph(const std::string& path, const GraphLimits& limits) {
  // What the path is, before opening it: opening a FIFO would block until a writer comes.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw GraphError(path + ": cannot be read (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw GraphError(path + ": is a directory, not a METIS graph file");
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISFIFO(st.st_mode)                         ? "a FIFO"
                       : S_ISSOCK(st.st_mode)                       ? "a socket"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                    : "a special file";
    throw GraphError(path + ": is " + kind +
                     ", not a regular file (an application reads its input twice: once to check the "
                     "configuration, once to run)");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw GraphError(path + ": cannot be read (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  Lines lines(fd, path);  // parsed as it is read: memory follows the graph, not the file
  return parse(lines, path, limits, 0);
}

CsrGraph extrude(const CsrGraph& g, std::uint32_t layers) {
  if (layers <= 1) return g;
  const std::uint64_t n = g.vertices;
  if (n * layers >= kMaxGraphEntries || (g.edges() + 2 * n) * layers > kMaxGraphEntries)
    throw GraphError("extruding " + std::to_string(layers) +
                     " layers makes more than 2^28 vertices or entries");
  CsrGraph r;
  r.has_edge_weights = g.has_edge_weights;
  r.vertices = static_cast<std::uint32_t>(n * layers);
  r.row_ptr.reserve(n * layers + 1);
  r.row_ptr.push_back(0);
  r.col.reserve((g.edges() + 2 * n) * layers);
  r.weight.reserve(r.col.capacity());
  for (std::uint64_t l = 0; l < layers; ++l) {
    for (std::uint64_t v = 0; v < n; ++v) {
      if (l > 0) {
        r.col.push_back(static_cast<std::uint32_t>((l - 1) * n + v));
        r.weight.push_back(1);
      }
      for (std::uint32_t k = g.row_ptr[v]; k < g.row_ptr[v + 1]; ++k) {
        r.col.push_back(static_cast<std::uint32_t>(l * n + g.col[k]));
        r.weight.push_back(g.weight[k]);
      }
      if (l + 1 < layers) {
        r.col.push_back(static_cast<std::uint32_t>((l + 1) * n + v));
        r.weight.push_back(1);
      }
      r.row_ptr.push_back(static_cast<std::uint32_t>(r.col.size()));
    }
  }
  return r;
}

}  // namespace numagpu::kernels
