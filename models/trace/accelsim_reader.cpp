#include "trace/accelsim_reader.hpp"

#include <filesystem>

#include "common/printable.hpp"
#include "trace/opcode.hpp"

namespace numagpu::trace {
namespace {

constexpr uint32_t kMinTracerVersion = 3;  // versions 1 and 2 prefix every line with block and warp ids
constexpr uint32_t kMaxTracerVersion = 5;
constexpr uint32_t kFirstVersionWithImmediate = 5;
constexpr uint64_t kMaxRegistersPerThread = 255;
// Duplicate thread blocks are detected with one bit per CTA up to this many CTAs (8 MiB of bits).
constexpr uint64_t kMaxTrackedCtas = uint64_t{1} << 26;
// Accel-Sim's tracer writes at most one destination and four sources; more means a misparsed line.
constexpr uint32_t kMaxRegisterOperands = 16;
constexpr size_t kMaxQuotedChars = 60;

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// How a token appears in an error: quoted and cut short, or "end of line".
// Control bytes and bytes that are not UTF-8 are escaped: errors and warnings reach a terminal.
std::string quote(std::string_view token) {
  if (token.empty()) return "end of line";
  if (token.size() > kMaxQuotedChars) return "'" + printable(token.substr(0, kMaxQuotedChars)) + "...'";
  return "'" + printable(token) + "'";
}

// A block marker, or what is left of one in a cut file: a prefix of "#BEGIN_TB" or "#END_TB", or a token
// that starts like one.
bool is_marker_like(std::string_view token) {
  for (const std::string_view marker : {std::string_view("#BEGIN_TB"), std::string_view("#END_TB")}) {
    if (starts_with(marker, token) || starts_with(token, marker.substr(0, marker.size() - 3))) return true;
  }
  return false;
}

bool is_hex_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// "x,y,z", optionally in parentheses, blanks allowed around the numbers.
bool parse_triple(std::string_view s, uint32_t (&out)[3]) {
  s = trim(s);
  if (!s.empty() && s.front() == '(') {
    if (s.back() != ')') return false;
    s = s.substr(1, s.size() - 2);
  }
  for (int i = 0; i < 3; ++i) {
    const size_t comma = i < 2 ? s.find(',') : s.size();
    if (comma == std::string_view::npos) return false;
    if (!parse_dec_as(trim(s.substr(0, comma)), out[i])) return false;
    s = i < 2 ? s.substr(comma + 1) : std::string_view();
  }
  return true;
}

// "<word1> <word2> = <value>" as written by the post-processor ("thread block = 0,0,0", "warp = 3").
bool split_assignment(std::string_view line, std::string_view key, std::string_view& value) {
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos || trim(line.substr(0, eq)) != key) return false;
  value = trim(line.substr(eq + 1));
  return true;
}

bool is_known_sm(uint32_t v) {
  static constexpr uint32_t kKnown[] = {30, 32, 35, 37, 50, 52, 53,  60,  61,  62,  70,  72,
                                        75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121};
  for (const uint32_t k : kKnown) {
    if (k == v) return true;
  }
  return false;
}

bool contiguous(uint32_t mask) {
  if (mask == 0) return true;
  const uint32_t shifted = mask >> __builtin_ctz(mask);
  return (shifted & (shifted + 1)) == 0;
}

}  // namespace

AccelSimKernelReader::AccelSimKernelReader(const std::string& path)
    : AccelSimKernelReader(OpenedInput(path)) {}

AccelSimKernelReader::AccelSimKernelReader(OpenedInput input)
    : warnings_(std::move(input.warnings)), lines_(std::move(input.stream)) {
  read_header();
}

// ---- errors -------------------------------------------------------------------------------------------

std::string AccelSimKernelReader::location() const {
  return lines_.path() + ":" + std::to_string(lines_.line_number());
}

void AccelSimKernelReader::fail(const std::string& message) const {
  throw TraceError(location() + ": " + message);
}

void AccelSimKernelReader::expected(const std::string& what, std::string_view found) const {
  fail("expected " + what + ", found " + quote(found));
}

std::string AccelSimKernelReader::block_name(const ThreadBlock& block) const {
  return "thread block (" + std::to_string(block.x) + "," + std::to_string(block.y) + "," +
         std::to_string(block.z) + ")";
}

bool AccelSimKernelReader::next_line(std::string_view& line) {
  while (lines_.next(line)) {
    if (!trim(line).empty()) return true;
  }
  return false;
}

// ---- header -------------------------------------------------------------------------------------------

void AccelSimKernelReader::read_header() {
  std::string_view line;
  while (next_line(line)) {
    if (line[0] == '-') {
      parse_header_field(line);
    } else if (first_token(line) == "#BEGIN_TB") {
      begin_pending_ = true;
      break;
    } else if (is_marker_like(first_token(line))) {
      // "#BEGIN_T", "#", "#END_TB": a file cut inside its first marker, or a block without a start.
      expected("'#BEGIN_TB'", first_token(line));
    } else if (line[0] != '#') {  // other '#' lines are comments ("#traces format = ...")
      const bool raw = ends_with(lines_.path(), ".trace") || ends_with(lines_.path(), ".trace.xz");
      expected(std::string("a '-key = value' header line or '#BEGIN_TB'") +
                   (raw ? " (this looks like raw tracer output: run Accel-Sim's post-traces-processing first)"
                        : ""),
               first_token(line));
    }
  }
  check_header();
}

void AccelSimKernelReader::parse_header_field(std::string_view line) {
  const size_t eq = line.find('=');
  if (eq == std::string_view::npos) expected("a header line '-key = value'", line);
  const std::string_view key = trim(line.substr(1, eq - 1));
  const std::string_view value = trim(line.substr(eq + 1));
  const auto number = [&](auto& field, const char* what) {
    if (!parse_dec_as(value, field)) expected(std::string(what) + " (decimal)", value);
  };
  const auto address = [&](uint64_t& field) {
    if (!parse_hex(value, field)) expected("-" + std::string(key) + " (hexadecimal)", value);
  };
  const auto dims = [&](Dim3& field, auto check) {
    uint32_t v[3];
    if (!parse_triple(value, v)) expected("-" + std::string(key) + " as (x,y,z)", value);
    field = Dim3{v[0], v[1], v[2]};
    if (const auto problem = check(field)) fail(*problem);
  };

  if (key == "kernel name") {
    info_.name = std::string(value);
  } else if (key == "kernel id") {
    number(info_.kernel_id, "-kernel id");
  } else if (key == "grid dim") {
    dims(info_.grid, check_grid_dims);
    have_grid_ = true;
  } else if (key == "block dim") {
    dims(info_.block, check_block_dims);
    have_block_ = true;
  } else if (key == "shmem") {
    number(info_.shared_mem_bytes, "-shmem");
  } else if (key == "nregs") {
    number(header_.nregs, "-nregs");
    nregs_line_ = lines_.line_number();
  } else if (key == "binary version") {
    number(header_.binary_version, "-binary version");
    binary_version_line_ = lines_.line_number();
  } else if (key == "cuda stream id") {
    number(header_.cuda_stream_id, "-cuda stream id");
  } else if (key == "shmem base_addr") {
    address(info_.shared_mem_base);
  } else if (key == "local mem base_addr") {
    address(info_.local_mem_base);
  } else if (key == "nvbit version") {
    header_.nvbit_version = std::string(value);
  } else if (key == "accelsim tracer version") {
    number(header_.tracer_version, "-accelsim tracer version");
    version_line_ = lines_.line_number();
    if (header_.tracer_version < kMinTracerVersion || header_.tracer_version > kMaxTracerVersion) {
      fail("accelsim tracer version " + std::to_string(header_.tracer_version) +
           " is not supported (expected " + std::to_string(kMinTracerVersion) + " to " +
           std::to_string(kMaxTracerVersion) + ")");
    }
  } else if (key == "enable lineinfo") {
    if (value != "0" && value != "1") expected("-enable lineinfo = 0 or 1", value);
    header_.lineinfo = value == "1";
  } else {
    warnings_.add(location() + ": unknown header field '-" + std::string(key) + "' ignored");
  }
}

void AccelSimKernelReader::check_header() {
  if (lines_.line_number() == 0)
    throw TraceError(lines_.path() + ": empty file: expected an Accel-Sim kernel trace");
  const std::string where = "in the header, before the first thread block";
  if (version_line_ == 0) fail("expected '-accelsim tracer version = N' " + where);
  if (!have_grid_) fail("expected '-grid dim = (x,y,z)' " + where);
  if (!have_block_) fail("expected '-block dim = (x,y,z)' " + where);

  const std::string& path = lines_.path();
  if (header_.nregs > kMaxRegistersPerThread) {
    warnings_.add(path + ":" + std::to_string(nregs_line_) + ": -nregs = " + std::to_string(header_.nregs) +
                  " exceeds the " + std::to_string(kMaxRegistersPerThread) +
                  " registers a thread can have; ignored (registers per thread unknown)");
  } else {
    info_.registers_per_thread = static_cast<uint32_t>(header_.nregs);
  }
  if (!is_known_sm(header_.binary_version)) {
    warnings_.add(path + ":" + std::to_string(binary_version_line_) +
                  ": -binary version = " + std::to_string(header_.binary_version) +
                  " is not a known SM architecture (e.g. 70 Volta, 80 Ampere, 90 Hopper); ignored: numagpu "
                  "classifies opcodes by name, not with per-architecture tables");
  }
  if (info_.ctas() <= kMaxTrackedCtas) seen_ctas_.assign(info_.ctas(), false);
}

// ---- thread blocks ------------------------------------------------------------------------------------

bool AccelSimKernelReader::next_block(ThreadBlock& block) {
  if (finished_) return false;
  std::string_view line;
  if (!begin_pending_) {
    if (!next_line(line)) {
      finish();
      return false;
    }
    if (first_token(line) != "#BEGIN_TB") expected("'#BEGIN_TB'", first_token(line));
  }
  begin_pending_ = false;
  read_block(block);
  ++blocks_read_;
  return true;
}

void AccelSimKernelReader::finish() {
  finished_ = true;
  if (blocks_read_ != info_.ctas()) {
    warnings_.add(lines_.path() + ": the trace holds " + std::to_string(blocks_read_) + " of the grid's " +
                  std::to_string(info_.ctas()) + " thread blocks; only the traced ones are simulated");
  }
}

void AccelSimKernelReader::read_block(ThreadBlock& block) {
  read_block_id(block);
  const uint32_t warps = info_.warps_per_cta();
  block.warps.resize(warps);
  seen_warps_.assign(warps, false);

  std::string_view line;
  for (;;) {
    if (!next_line(line)) fail("unexpected end of file: expected '#END_TB' to close " + block_name(block));
    const std::string_view token = first_token(line);
    if (token == "#END_TB") break;
    if (token == "warp") {
      read_warp(block, line);
    } else if (token == "cluster") {
      // Hopper thread block clusters ("cluster id = ...", "cluster cta = ...", "cluster rank = ...").
      warnings_.add_once("cluster",
                         location() + ": thread block cluster lines ignored (clusters are not modelled)");
    } else {
      expected("'warp = N' or '#END_TB' in " + block_name(block), token);
    }
  }

  for (uint32_t w = 0; w < warps; ++w) {
    if (seen_warps_[w]) continue;
    block.warps[w].clear();
    warnings_.add_once("missing warp", location() + ": warp " + std::to_string(w) + " of " +
                                           block_name(block) +
                                           " is not in the trace; simulated as empty (reported once)");
  }
}

void AccelSimKernelReader::read_block_id(ThreadBlock& block) {
  std::string_view line;
  if (!next_line(line)) fail("unexpected end of file: expected 'thread block = x,y,z' after '#BEGIN_TB'");
  std::string_view value;
  uint32_t id[3];
  if (!split_assignment(line, "thread block", value) || !parse_triple(value, id)) {
    expected("'thread block = x,y,z'", line);
  }
  if (id[0] >= info_.grid.x || id[1] >= info_.grid.y || id[2] >= info_.grid.z) {
    fail("thread block (" + std::string(value) + ") is outside the grid (" + std::to_string(info_.grid.x) +
         "," + std::to_string(info_.grid.y) + "," + std::to_string(info_.grid.z) + ")");
  }
  block.x = id[0];
  block.y = id[1];
  block.z = id[2];
  block.cta_id = info_.linear_cta_id(id[0], id[1], id[2]);
  if (!seen_ctas_.empty()) {
    if (seen_ctas_[block.cta_id]) fail(block_name(block) + " appears twice");
    seen_ctas_[block.cta_id] = true;
  }
}

void AccelSimKernelReader::read_warp(ThreadBlock& block, std::string_view warp_line) {
  std::string_view value;
  uint32_t w = 0;
  if (!split_assignment(warp_line, "warp", value) || !parse_dec_as(value, w)) {
    expected("'warp = N'", warp_line);
  }
  const uint32_t warps = info_.warps_per_cta();
  if (w >= warps) {
    expected("a warp index below " + std::to_string(warps) + " (the block has " +
                 std::to_string(info_.threads_per_cta()) + " threads)",
             value);
  }
  if (seen_warps_[w]) fail("warp " + std::to_string(w) + " appears twice in " + block_name(block));
  seen_warps_[w] = true;

  std::string_view line;
  uint64_t count = 0;
  if (!next_line(line))
    fail("unexpected end of file: expected 'insts = N' after 'warp = " + std::to_string(w) + "'");
  if (!split_assignment(line, "insts", value) || !parse_dec(value, count)) expected("'insts = N'", line);

  // Instructions are parsed into the existing elements, so their address vectors keep their capacity from
  // block to block; the list only grows as lines actually arrive (a bogus huge count cannot allocate).
  std::vector<WarpInstruction>& insts = block.warps[w];
  const auto owner = [&] { return "warp " + std::to_string(w) + " of " + block_name(block); };
  for (uint64_t i = 0; i < count; ++i) {
    if (!next_line(line)) {
      const uint64_t missing = count - i;
      fail("unexpected end of file: expected " + std::to_string(missing) + " more instruction" +
           (missing == 1 ? "" : "s") + " for " + owner());
    }
    if (!is_hex_digit(line[0])) {
      expected("instruction " + std::to_string(i + 1) + " of " + std::to_string(count) + " for " + owner(),
               first_token(line));
    }
    if (i == insts.size()) insts.emplace_back();
    parse_instruction(line, insts[i]);
  }
  insts.resize(count);
}

// ---- one instruction line: the hot loop ----------------------------------------------------------------
//
// [line_num] PC mask dest_num [R<d>...] opcode src_num [R<s>...] mem_width [mode addresses...] [immediate]

void AccelSimKernelReader::parse_instruction(std::string_view line, WarpInstruction& inst) {
  LineCursor in(line);
  if (header_.lineinfo) {
    uint64_t source_line;
    if (!in.dec(source_line)) expected("source line number (decimal)", in.token());
  }
  if (!in.hex_as(inst.pc)) expected("PC (hexadecimal)", in.token());
  if (!in.hex_as(inst.active_mask)) expected("active mask (32-bit hexadecimal)", in.token());
  skip_registers(in, "destination");
  const std::string_view opcode = in.token();
  if (opcode.empty() || opcode[0] < 'A' || opcode[0] > 'Z') expected("opcode", opcode);
  skip_registers(in, "source");

  uint8_t width = 0;
  if (!in.dec_as(width)) expected("memory width in bytes (0 to 255)", in.token());
  inst.kind = classify_opcode(opcode);
  inst.compute_cycles = 1;
  const bool memory = is_memory(inst.kind);
  inst.access_bytes = memory ? width : 0;
  if (width > 0) {
    // Shared-memory and other non-memory-kind instructions carry addresses too: validated, then dropped.
    parse_addresses(in, inst.active_mask, memory ? inst.addresses : discarded_addresses_);
  } else if (memory && inst.active_mask != 0) {
    expected("a memory width and addresses for " + std::string(opcode), "0");
  }
  if (!memory || width == 0) inst.addresses.clear();

  if (header_.tracer_version >= kFirstVersionWithImmediate) {
    int64_t immediate;
    if (!in.signed_dec(immediate)) expected("immediate (decimal)", in.token());
  }
  if (!in.at_end()) expected("end of line", in.token());
}

void AccelSimKernelReader::skip_registers(LineCursor& in, const char* role) {
  uint32_t count = 0;
  const bool number = in.dec_as(count);
  if (!number || count > kMaxRegisterOperands) {
    expected(std::string(role) + " register count (0 to " + std::to_string(kMaxRegisterOperands) + ")",
             number ? std::to_string(count) : std::string(in.token()));
  }
  for (uint32_t r = 0; r < count; ++r) {
    const std::string_view reg = in.token();
    if (reg.empty() || reg[0] != 'R') expected(std::string(role) + " register (R<n>)", reg);
  }
}

void AccelSimKernelReader::parse_addresses(LineCursor& in, uint32_t mask, std::vector<uint64_t>& out) {
  const uint32_t n = static_cast<uint32_t>(__builtin_popcount(mask));
  out.clear();
  uint32_t mode = 0;
  const bool number = in.dec_as(mode);
  if (!number || mode > 2) {
    expected("address mode 0 (list), 1 (base+stride) or 2 (base+delta)",
             number ? std::to_string(mode) : std::string(in.token()));
  }
  if (mode == 0) {  // one address per active thread, in lane order
    for (uint32_t k = 0; k < n; ++k) {
      uint64_t a;
      if (!in.hex(a)) {
        expected("address " + std::to_string(k + 1) + " of " + std::to_string(n) + " (hexadecimal)",
                 in.token());
      }
      out.push_back(a);
    }
    return;
  }

  uint64_t base;
  if (!in.hex(base)) expected("base address (hexadecimal)", in.token());
  if (mode == 1) {  // base, then a constant stride between consecutive active threads
    int64_t stride;
    if (!in.signed_dec(stride)) expected("stride (decimal)", in.token());
    if (!contiguous(mask)) {
      // The tracer only writes a stride for contiguous lanes; Accel-Sim would drop the lanes past the gap.
      warnings_.add_once("stride gap",
                         location() +
                             ": base+stride addresses with non-contiguous active mask; the stride "
                             "is applied per active thread in lane order (reported once)");
    }
    for (uint32_t k = 0; k < n; ++k)
      out.push_back(base + static_cast<uint64_t>(stride) * k);
    return;
  }
  // mode 2: base, then the difference of each further active thread's address from the previous one
  if (n > 0) out.push_back(base);
  for (uint32_t k = 1; k < n; ++k) {
    int64_t delta;
    if (!in.signed_dec(delta)) {
      expected("address delta " + std::to_string(k) + " of " + std::to_string(n - 1) + " (decimal)",
               in.token());
    }
    out.push_back(out.back() + static_cast<uint64_t>(delta));
  }
}

// ---- kernelslist.g ------------------------------------------------------------------------------------

std::vector<std::string> KernelList::kernel_paths() const {
  std::vector<std::string> paths;
  for (const TraceCommand& c : commands) {
    if (c.kind == TraceCommand::Kind::kKernel) paths.push_back(c.path);
  }
  return paths;
}

namespace {

bool parse_memcpy(std::string_view line, TraceCommand& cmd) {
  // MemcpyHtoD,<0x address>,<bytes>
  const size_t c1 = line.find(',');
  const size_t c2 = c1 == std::string_view::npos ? c1 : line.find(',', c1 + 1);
  if (c2 == std::string_view::npos) return false;
  cmd.kind = TraceCommand::Kind::kMemcpyHtoD;
  return parse_hex(trim(line.substr(c1 + 1, c2 - c1 - 1)), cmd.address) &&
         parse_dec(trim(line.substr(c2 + 1)), cmd.bytes);
}

}  // namespace

KernelList read_kernel_list(const std::string& path) {
  KernelList list;
  Warnings warnings;
  LineReader lines(InputStream::open(path, &warnings));
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::string_view raw;
  while (lines.next(raw)) {
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(lines.line_number());
    TraceCommand cmd;
    cmd.line = lines.line_number();
    if (starts_with(line, "MemcpyHtoD")) {
      if (!parse_memcpy(line, cmd)) {
        throw TraceError(where + ": expected 'MemcpyHtoD,<hex address>,<bytes>', found " + quote(line));
      }
    } else if (starts_with(line, "kernel")) {
      cmd.kind = TraceCommand::Kind::kKernel;
      cmd.path = (dir / std::string(line)).string();
    } else {
      warnings.add(where + ": " + quote(line) +
                   " ignored (expected a kernel trace file name or 'MemcpyHtoD,<hex address>,<bytes>')");
      continue;
    }
    list.commands.push_back(std::move(cmd));
  }
  list.warnings = warnings.messages();
  return list;
}

}  // namespace numagpu::trace
