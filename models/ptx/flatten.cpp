// Kernel's construction: the entry and its calls flattened into one instruction list, every operand made a
// register, the control-flow graph, the instruction costs and the registers per thread.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "ptx/kernel_impl.hpp"

namespace numagpu::ptx {

namespace {

constexpr std::uint32_t kConstBase = 0x8000'0000u;  // placeholder register numbers of immediates
constexpr std::size_t kMaxInstructions = 1u << 18;  // a kernel larger once its calls are inlined is refused
// Calls are inlined by recursion, one level per nested call; a deeper chain is refused instead of exhausting
// the host's stack (compiled CUDA nests a few levels; 64 leaves room for unoptimised code).
constexpr std::size_t kMaxCallDepth = 64;

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) {
  return a ? (v + a - 1) / a * a : v;
}

class Flattener {
 public:
  Flattener(const Module& m, Kernel::Impl& k) : m_(m), k_(k) { special_.fill(kNoReg); }

  void run(std::uint32_t entry) {
    const Function& f = m_.functions[entry];
    // Module-level shared variables: laid out first, in order (every entry of the module sees them).
    for (std::uint32_t v = 0; v < m_.variables.size(); ++v) {
      const VariableInfo& var = m_.variables[v];
      if (var.space != VariableInfo::Space::kShared) continue;
      if (var.bytes == 0) continue;  // extern .shared x[]: dynamic, placed after the static ones
      shared_cursor_ = align_up(shared_cursor_, var.align);
      module_shared_[v] = shared_cursor_;
      shared_cursor_ += var.bytes;
    }
    emit(entry, {}, {}, true, f.line, f.column);
    k_.vars = static_cast<std::uint32_t>(bits_.size());
    for (Instr& in : k_.code) {
      for (auto& s : in.src)
        if (s.kind == Operand::Kind::kReg && s.reg >= kConstBase) s.reg = k_.vars + (s.reg - kConstBase);
    }
    k_.constants.resize(constants_.size() * kWarpLanes);
    for (std::size_t c = 0; c < constants_.size(); ++c)
      std::fill_n(&k_.constants[c * kWarpLanes], kWarpLanes, constants_[c]);
    k_.static_shared = shared_cursor_;
    k_.local_bytes = align_up(local_cursor_, 8);
    k_.frame_bytes = align_up(frame_cursor_, 8);
    program_registers_ = program_bits_;
  }

  std::vector<std::uint8_t> program_bits_;  // registers the program declared (liveness counts these)
  std::vector<std::uint8_t> program_registers_;

 private:
  [[noreturn]] void refuse(std::uint32_t line, std::uint32_t column, const std::string& what) const {
    throw ParseError(m_.file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
  }

  std::uint32_t new_register(std::uint8_t bits, bool program) {
    bits_.push_back(bits);
    if (program) {
      program_bits_.resize(bits_.size(), 0);
      program_bits_.back() = bits;
    }
    return static_cast<std::uint32_t>(bits_.size() - 1);
  }
  std::uint32_t constant(std::uint64_t bits) {
    auto it = constant_index_.find(bits);
    if (it != constant_index_.end()) return it->second;
    const auto r = kConstBase + static_cast<std::uint32_t>(constants_.size());
    constants_.push_back(bits);
    constant_index_.emplace(bits, r);
    return r;
  }
  // The condition-code register CC.CF of the carry instructions, one per thread.
  std::uint32_t carry() {
    if (carry_ == kNoReg) carry_ = new_register(1, false);
    return carry_;
  }
  // The register a `_` destination writes: nothing reads it.
  std::uint32_t discard() {
    if (discard_ == kNoReg) discard_ = new_register(64, false);
    return discard_;
  }
  std::uint32_t special(Special s) {
    auto& r = special_[static_cast<unsigned>(s)];
    if (r == kNoReg) {
      r = new_register(64, false);
      k_.special_registers.push_back({r, s});
    }
    return r;
  }
  std::uint32_t variable(std::uint32_t v) {
    auto it = variable_reg_.find(v);
    if (it != variable_reg_.end()) return it->second;
    const std::uint32_t r = new_register(64, false);
    variable_reg_.emplace(v, r);
    k_.variable_registers.push_back({r, v});
    return r;
  }

  // Where one instance's symbols are.
  struct Instance {
    std::uint32_t function = 0;
    std::uint32_t reg_base = 0;
    bool is_entry = false;
    std::vector<std::uint64_t> local_offset;  // per Function::locals (kLocal, kFrame) in its space
    std::vector<std::uint64_t> param_frame;   // callee: each parameter's frame offset
    std::vector<std::uint64_t> return_frame;  // callee: each return value's frame offset
  };

  std::uint64_t shared_offset(std::uint32_t function, std::uint32_t local) {
    const auto key = std::make_pair(function, local);
    auto it = function_shared_.find(key);
    if (it != function_shared_.end()) return it->second;
    const LocalVariable& v = m_.functions[function].locals[local];
    std::uint64_t offset;
    if (v.dynamic) {
      k_.dynamic_shared_align = std::max<std::uint32_t>(k_.dynamic_shared_align, std::max(v.align, 1u));
      offset = ~0ull;  // resolved after the static layout (fix_dynamic)
    } else {
      shared_cursor_ = align_up(shared_cursor_, v.align);
      offset = shared_cursor_;
      shared_cursor_ += v.bytes;
    }
    function_shared_.emplace(key, offset);
    return offset;
  }

  // A symbol's address in its own space, and that space.
  struct Resolved {
    Space space;
    std::uint64_t offset = 0;
    std::uint32_t variable_reg = kNoReg;  // a global or const variable: its address register
    bool dynamic_shared = false;
  };
  Resolved resolve(const Instance& inst, std::uint32_t symbol, const Instr& in) {
    const Function& f = m_.functions[inst.function];
    const Symbol& s = f.symbols[symbol];
    switch (s.kind) {
      case Symbol::Kind::kModuleVariable: {
        const VariableInfo& v = m_.variables[s.index];
        if (v.space == VariableInfo::Space::kShared) {
          if (v.bytes == 0) {
            k_.dynamic_shared_align = std::max<std::uint32_t>(k_.dynamic_shared_align, std::max(v.align, 1u));
            return {Space::kShared, 0, kNoReg, true};
          }
          return {Space::kShared, module_shared_.at(s.index), kNoReg, false};
        }
        return {v.space == VariableInfo::Space::kConst ? Space::kConst : Space::kGlobal, 0, variable(s.index),
                false};
      }
      case Symbol::Kind::kShared: {
        const std::uint64_t o = shared_offset(inst.function, s.index);
        return {Space::kShared, o == ~0ull ? 0 : o, kNoReg, o == ~0ull};
      }
      case Symbol::Kind::kLocal:
        return {Space::kLocal, inst.local_offset[s.index], kNoReg, false};
      case Symbol::Kind::kFrame:
        return {Space::kFrame, inst.local_offset[s.index], kNoReg, false};
      case Symbol::Kind::kParam:
        if (inst.is_entry) return {Space::kParam, f.params[s.index].offset, kNoReg, false};
        return {Space::kFrame, inst.param_frame.at(s.index), kNoReg, false};
      case Symbol::Kind::kReturn:
        return {Space::kFrame, inst.return_frame.at(s.index), kNoReg, false};
      case Symbol::Kind::kFunction:
        break;
    }
    refuse(in.line, in.column, "unsupported use of a function's address");
  }

  Operand value(const Instance& inst, const Operand& o, const Instr& in) {
    Operand r = o;
    switch (o.kind) {
      case Operand::Kind::kNone:
        return r;
      case Operand::Kind::kReg:
        r.reg = o.reg + inst.reg_base;
        return r;
      case Operand::Kind::kImm:
        r.reg = constant(static_cast<std::uint64_t>(o.imm));
        break;
      case Operand::Kind::kSpecial:
        r.reg = special(static_cast<Special>(o.sym));
        break;
      case Operand::Kind::kSymbol: {
        const Resolved s = resolve(inst, o.sym, in);
        if (s.variable_reg != kNoReg) {
          r.reg = s.variable_reg;
        } else {
          if (s.dynamic_shared) dynamic_uses_.push_back(k_.code.size());
          // A kernel parameter's address (clang takes it for a struct passed by value) is its offset in the
          // launch's parameter buffer, which ld.param through a register reads (Executor::access, kParam). A
          // call frame's parameters have no such buffer address.
          if (s.space == Space::kFrame)
            refuse(in.line, in.column, "unsupported address of a device function's parameter");
          r.reg = constant(s.offset);
        }
        break;
      }
      default:
        refuse(in.line, in.column, "unsupported operand");
    }
    r.kind = Operand::Kind::kReg;
    r.imm = 0;
    return r;
  }

  void address(const Instance& inst, Instr& out, const Instr& in) {
    Operand& a = out.addr;
    if (a.kind == Operand::Kind::kReg) {
      a.reg += inst.reg_base;
      return;
    }
    if (a.kind != Operand::Kind::kSymbol) return;  // an absolute address
    const Resolved s = resolve(inst, a.sym, in);
    a.kind = Operand::Kind::kReg;
    a.reg = kNoReg;
    if (s.dynamic_shared) dynamic_uses_.push_back(k_.code.size());
    if (s.variable_reg != kNoReg) {
      a.reg = s.variable_reg;
      if (out.space != Space::kGeneric && out.space != Space::kGlobal && out.space != Space::kConst)
        refuse(in.line, in.column, "a variable used in another state space");
      return;
    }
    if (out.space == Space::kGeneric) {
      if (s.space == Space::kShared)
        a.imm += static_cast<std::int64_t>(kSharedWindow + s.offset);
      else if (s.space == Space::kLocal)
        a.imm += static_cast<std::int64_t>(kLocalWindow + s.offset);
      else
        refuse(in.line, in.column, "unsupported generic access to a parameter");
      return;
    }
    if (out.space == Space::kParam && (s.space == Space::kParam || s.space == Space::kFrame))
      out.space = s.space;
    if (out.space != s.space) refuse(in.line, in.column, "a variable used in another state space");
    a.imm += static_cast<std::int64_t>(s.offset);
  }

  // Emits function `fi` (its calls inlined); returns the indices of its `ret` jumps for the caller to point
  // past the body.
  std::vector<std::size_t> emit(std::uint32_t fi, std::vector<std::uint64_t> param_frame,
                                std::vector<std::uint64_t> return_frame, bool is_entry, std::uint32_t line,
                                std::uint32_t column) {
    const Function& f = m_.functions[fi];
    if (!f.defined) refuse(line, column, "unsupported call of '" + f.name + "' (not defined in the module)");
    if (std::find(stack_.begin(), stack_.end(), fi) != stack_.end())
      refuse(line, column, "unsupported recursive call of '" + f.name + "'");
    if (stack_.size() > kMaxCallDepth)  // the entry plus kMaxCallDepth nested calls
      refuse(line, column,
             "unsupported call of '" + f.name + "': more than " + std::to_string(kMaxCallDepth) +
                 " nested calls");
    stack_.push_back(fi);
    Instance inst;
    inst.function = fi;
    inst.is_entry = is_entry;
    inst.param_frame = std::move(param_frame);
    inst.return_frame = std::move(return_frame);
    inst.reg_base = static_cast<std::uint32_t>(bits_.size());
    for (std::uint8_t b : f.register_bits)
      new_register(b, true);
    inst.local_offset.resize(f.locals.size(), 0);
    for (std::size_t i = 0; i < f.locals.size(); ++i) {
      const LocalVariable& v = f.locals[i];
      if (v.space == Space::kLocal) {
        local_cursor_ = align_up(local_cursor_, v.align);
        inst.local_offset[i] = local_cursor_;
        local_cursor_ += v.bytes;
      } else if (v.space == Space::kFrame) {
        frame_cursor_ = align_up(frame_cursor_, v.align);
        inst.local_offset[i] = frame_cursor_;
        frame_cursor_ += v.bytes;
      }
    }
    std::vector<std::size_t> pc_map(f.code.size() + 1, 0), branches, rets;
    for (std::size_t i = 0; i < f.code.size(); ++i) {
      const Instr& in = f.code[i];
      pc_map[i] = k_.code.size();
      if (k_.code.size() > kMaxInstructions)
        refuse(in.line, in.column, "kernel too large once calls are inlined");
      if (in.op == Op::kCall) {
        if (in.guard != kNoReg) refuse(in.line, in.column, "unsupported predicated call");
        const CallSite& site = f.calls[in.target];
        const Function& callee = m_.functions[site.callee];
        if (site.arguments.size() != callee.params.size() || site.returns.size() != callee.returns.size())
          refuse(in.line, in.column, "call of '" + callee.name + "' with the wrong number of parameters");
        std::vector<std::uint64_t> args, rets_frame;
        for (std::uint32_t s : site.arguments)
          args.push_back(resolve(inst, s, in).offset);
        for (std::uint32_t s : site.returns)
          rets_frame.push_back(resolve(inst, s, in).offset);
        Instr marker = in;
        marker.target = 0;
        k_.code.push_back(marker);
        const std::vector<std::size_t> callee_rets =
            emit(site.callee, std::move(args), std::move(rets_frame), false, in.line, in.column);
        for (std::size_t r : callee_rets)
          k_.code[r].target = static_cast<std::uint32_t>(k_.code.size());
        continue;
      }
      Instr out = in;
      if (out.guard != kNoReg) out.guard += inst.reg_base;
      for (unsigned d = 0; d < out.ndst; ++d)
        out.dst[d] = out.dst[d] == kNoReg ? discard() : out.dst[d] + inst.reg_base;
      for (unsigned s = 0; s < out.nsrc; ++s)
        out.src[s] = value(inst, in.src[s], in);
      if (in.flags & kCarryIn) {  // the thread's CC.CF, as one more source
        out.src[out.nsrc].kind = Operand::Kind::kReg;
        out.src[out.nsrc++].reg = carry();
      }
      if (in.flags & kCarryOut) out.dst[out.ndst++] = carry();
      if (in.op == Op::kLd || in.op == Op::kSt || in.op == Op::kAtom || in.op == Op::kRed)
        address(inst, out, in);
      if (in.op == Op::kRet) {
        if (is_entry)
          out.op = Op::kExit;
        else
          rets.push_back(k_.code.size());
      }
      if (in.op == Op::kBra) branches.push_back(k_.code.size());
      k_.code.push_back(out);
    }
    pc_map[f.code.size()] = k_.code.size();
    for (std::size_t b : branches)
      k_.code[b].target = static_cast<std::uint32_t>(pc_map[k_.code[b].target]);
    // A body that runs off its end returns (a callee) or exits (the entry).
    Instr end;
    end.op = is_entry ? Op::kExit : Op::kRet;
    end.line = f.code.empty() ? f.line : f.code.back().line;
    end.column = f.code.empty() ? f.column : f.code.back().column;
    if (f.code.empty() || (f.code.back().op != Op::kRet && f.code.back().op != Op::kExit &&
                           !(f.code.back().op == Op::kBra && f.code.back().guard == kNoReg))) {
      if (!is_entry) rets.push_back(k_.code.size());
      k_.code.push_back(end);
    }
    stack_.pop_back();
    return rets;
  }

 public:
  // Extern .shared arrays start after the static shared memory, at their alignment.
  void fix_dynamic() {
    if (!k_.dynamic_shared_align) return;
    const std::uint64_t base = align_up(k_.static_shared, k_.dynamic_shared_align);
    for (std::size_t i : dynamic_uses_) {
      Instr& in = k_.code[i];
      if (in.op == Op::kLd || in.op == Op::kSt || in.op == Op::kAtom || in.op == Op::kRed) {
        in.addr.imm += static_cast<std::int64_t>(base);
      } else {
        // A value operand: its constant was the offset 0 within the dynamic area; rebase it.
        for (unsigned s = 0; s < in.nsrc; ++s) {
          Operand& o = in.src[s];
          if (o.kind != Operand::Kind::kReg || o.reg < k_.vars) continue;
          const std::uint64_t c = k_.constants[(o.reg - k_.vars) * kWarpLanes];
          const std::uint64_t rebased = c + base;
          // a new constant for the rebased value
          const auto r = k_.vars + static_cast<std::uint32_t>(k_.constants.size() / kWarpLanes);
          k_.constants.insert(k_.constants.end(), kWarpLanes, rebased);
          o.reg = r;
        }
      }
    }
  }

 private:
  const Module& m_;
  Kernel::Impl& k_;
  std::vector<std::uint8_t> bits_;
  std::vector<std::uint64_t> constants_;
  std::unordered_map<std::uint64_t, std::uint32_t> constant_index_;
  std::array<std::uint32_t, static_cast<unsigned>(Special::kCount)> special_;
  std::map<std::uint32_t, std::uint32_t> variable_reg_;
  std::map<std::uint32_t, std::uint64_t> module_shared_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> function_shared_;
  std::vector<std::size_t> dynamic_uses_;
  std::vector<std::uint32_t> stack_;
  std::uint32_t discard_ = kNoReg, carry_ = kNoReg;
  std::uint64_t shared_cursor_ = 0, local_cursor_ = 0, frame_cursor_ = 0;
};

// The most 32-bit register units live at once (docs/cuda.md, "Registers per thread").
// The registers a thread may read before writing them (live at the kernel's first instruction: read on some
// path before any unguarded write), and the sources of shfl (which reads other lanes, active or not): the
// ones a CTA's register file must start at zero in, as if all of it were zeroed. The others are always
// written before they are read, so a CTA need not clear what the previous one left in them.
std::vector<std::uint32_t> registers_to_zero(const std::vector<Instr>& code, const ControlFlowGraph& g,
                                             std::uint32_t vars) {
  const std::size_t words = (std::size_t(vars) + 63) / 64;
  auto set = [](std::uint64_t* v, std::uint32_t r) { v[r / 64] |= std::uint64_t{1} << (r % 64); };
  auto clear = [](std::uint64_t* v, std::uint32_t r) { v[r / 64] &= ~(std::uint64_t{1} << (r % 64)); };
  auto for_reads = [&](const Instr& in, auto f) {
    for (unsigned s = 0; s < in.nsrc; ++s)
      if (in.src[s].kind == Operand::Kind::kReg && in.src[s].reg < vars) f(in.src[s].reg);
    if (in.addr.kind == Operand::Kind::kReg && in.addr.reg < vars) f(in.addr.reg);
    if (in.guard < vars) f(in.guard);
  };
  const std::size_t nb = g.blocks.size();
  std::vector<std::uint64_t> live_in(nb * words, 0), cur(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = nb; b-- > 0;) {
      std::fill(cur.begin(), cur.end(), 0);
      for (std::uint32_t s : g.blocks[b].successors)
        if (s < nb)
          for (std::size_t w = 0; w < words; ++w)
            cur[w] |= live_in[s * words + w];
      for (std::uint32_t i = g.blocks[b].end; i-- > g.blocks[b].first;) {
        const Instr& in = code[i];
        if (in.guard == kNoReg)
          for (unsigned d = 0; d < in.ndst; ++d)
            if (in.dst[d] < vars) clear(cur.data(), in.dst[d]);
        for_reads(in, [&](std::uint32_t r) { set(cur.data(), r); });
      }
      for (std::size_t w = 0; w < words; ++w)
        if (live_in[b * words + w] != cur[w]) {
          live_in[b * words + w] = cur[w];
          changed = true;
        }
    }
  }
  std::vector<std::uint64_t> zero(words, 0);
  for (std::size_t b = 0; b < nb; ++b)
    if (g.blocks[b].first == 0 && g.blocks[b].end > 0)
      for (std::size_t w = 0; w < words; ++w)
        zero[w] |= live_in[b * words + w];
  for (const Instr& in : code)
    if (in.op == Op::kShfl && in.nsrc > 0 && in.src[0].kind == Operand::Kind::kReg && in.src[0].reg < vars)
      set(zero.data(), in.src[0].reg);
  std::vector<std::uint32_t> regs;
  for (std::uint32_t r = 0; r < vars; ++r)
    if (zero[r / 64] >> (r % 64) & 1) regs.push_back(r);
  return regs;
}

unsigned live_register_units(const std::vector<Instr>& code, const ControlFlowGraph& g,
                             const std::vector<std::uint8_t>& program_bits) {
  const std::size_t regs = program_bits.size();
  const std::size_t words = (regs + 63) / 64;
  auto units = [&](std::uint32_t r) -> unsigned {
    if (r >= regs || program_bits[r] <= 1) return 0;  // predicates have their own file
    return program_bits[r] == 64 ? 2 : 1;
  };
  auto for_reads = [&](const Instr& in, auto f) {
    for (unsigned s = 0; s < in.nsrc; ++s)
      if (in.src[s].kind == Operand::Kind::kReg && in.src[s].reg < regs) f(in.src[s].reg);
    if (in.addr.kind == Operand::Kind::kReg && in.addr.reg < regs) f(in.addr.reg);
  };
  const std::size_t nb = g.blocks.size();
  std::vector<std::uint64_t> live_in(nb * words, 0), live_out(nb * words, 0);
  auto set = [](std::uint64_t* v, std::uint32_t r) { v[r / 64] |= std::uint64_t{1} << (r % 64); };
  auto clear = [](std::uint64_t* v, std::uint32_t r) { v[r / 64] &= ~(std::uint64_t{1} << (r % 64)); };
  std::vector<std::uint64_t> cur(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = nb; b-- > 0;) {
      std::fill(cur.begin(), cur.end(), 0);
      for (std::uint32_t s : g.blocks[b].successors)
        if (s < nb)
          for (std::size_t w = 0; w < words; ++w)
            cur[w] |= live_in[s * words + w];
      std::copy(cur.begin(), cur.end(), live_out.begin() + static_cast<std::ptrdiff_t>(b * words));
      for (std::uint32_t i = g.blocks[b].end; i-- > g.blocks[b].first;) {
        const Instr& in = code[i];
        if (in.guard == kNoReg)
          for (unsigned d = 0; d < in.ndst; ++d)
            if (in.dst[d] < regs) clear(cur.data(), in.dst[d]);
        for_reads(in, [&](std::uint32_t r) { set(cur.data(), r); });
      }
      for (std::size_t w = 0; w < words; ++w)
        if (live_in[b * words + w] != cur[w]) {
          live_in[b * words + w] = cur[w];
          changed = true;
        }
    }
  }
  unsigned best = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    std::copy(live_out.begin() + static_cast<std::ptrdiff_t>(b * words),
              live_out.begin() + static_cast<std::ptrdiff_t>((b + 1) * words), cur.begin());
    unsigned count = 0;
    for (std::uint32_t r = 0; r < regs; ++r)
      if (cur[r / 64] >> (r % 64) & 1) count += units(r);
    best = std::max(best, count);
    for (std::uint32_t i = g.blocks[b].end; i-- > g.blocks[b].first;) {
      const Instr& in = code[i];
      // The destinations need registers at this instruction even when nothing reads them later.
      unsigned with_defs = count;
      for (unsigned d = 0; d < in.ndst; ++d)
        if (in.dst[d] < regs && !(cur[in.dst[d] / 64] >> (in.dst[d] % 64) & 1)) with_defs += units(in.dst[d]);
      best = std::max(best, with_defs);
      if (in.guard == kNoReg)
        for (unsigned d = 0; d < in.ndst; ++d)
          if (in.dst[d] < regs && (cur[in.dst[d] / 64] >> (in.dst[d] % 64) & 1)) {
            clear(cur.data(), in.dst[d]);
            count -= units(in.dst[d]);
          }
      for_reads(in, [&](std::uint32_t r) {
        if (!(cur[r / 64] >> (r % 64) & 1)) {
          set(cur.data(), r);
          count += units(r);
        }
      });
      best = std::max(best, count);
    }
  }
  return best;
}

}  // namespace

InstrCost cost_of(const Instr& in) {
  using K = InstrCost::Kind;
  const Type t = in.type;
  auto arith = [&]() {
    if (t == Type::kF64) return InstrClass::kFp64;
    if (t == Type::kF32 || t == Type::kF16 || t == Type::kF16x2) return InstrClass::kFp32;
    return InstrClass::kInt;
  };
  switch (in.op) {
    case Op::kNop:
    case Op::kWarpSync:
      return {K::kNone};
    case Op::kDiv:
      if (t == Type::kF64) return {K::kCompute, InstrClass::kFp64, kDivisionSlot + 2};
      if (t == Type::kF32)
        return (in.flags & (kApprox | kFull)) ? InstrCost{K::kCompute, InstrClass::kFp32}
                                              : InstrCost{K::kCompute, InstrClass::kFp32, kDivisionSlot + 1};
      return {K::kCompute, InstrClass::kInt, kDivisionSlot};
    case Op::kRem:
      return {K::kCompute, InstrClass::kInt, kDivisionSlot};
    case Op::kRcp:
    case Op::kSqrt:
    case Op::kRsqrt:
    case Op::kSin:
    case Op::kCos:
    case Op::kLg2:
    case Op::kEx2:
    case Op::kTanh:
      return {K::kCompute, InstrClass::kSfu};
    case Op::kSetp:
    case Op::kSet: {
      const Type c = in.type2;
      return {K::kCompute, c == Type::kF64 ? InstrClass::kFp64
                           : is_float(c)   ? InstrClass::kFp32
                                           : InstrClass::kInt};
    }
    case Op::kSlct:
      return {K::kCompute, InstrClass::kInt};
    case Op::kCvt: {
      const Type d = in.type, s = in.type2;
      if (is_float(d) && is_float(s)) {
        if (d == Type::kF64 || s == Type::kF64)
          return {K::kCompute, d == s ? InstrClass::kFp64 : InstrClass::kFp64};
        return {K::kCompute, InstrClass::kFp32};  // f16 <-> f32, or a rounding of an f32 to an integral f32
      }
      if (is_float(d) || is_float(s)) return {K::kCompute, InstrClass::kSfu};  // I2F / F2I run on the XU
      return {K::kCompute, InstrClass::kInt};
    }
    case Op::kCvta:
      return {
          K::kNone};  // the generic window is the identity for global; ptxas folds the rest into addresses
    case Op::kLd:
    case Op::kSt:
    case Op::kAtom:
    case Op::kRed:
      if (in.space == Space::kParam || in.space == Space::kFrame) return {K::kNone};
      return {K::kMemory};
    case Op::kBar:
      return {K::kBarrier};
    case Op::kBra:
    case Op::kCall:
    case Op::kRet:
    case Op::kExit:
    case Op::kTrap:
      return {K::kCompute, InstrClass::kBranch};
    case Op::kMembar:
    case Op::kShfl:
    case Op::kVote:
    case Op::kActivemask:
    case Op::kMov:
    case Op::kMovClock:
    case Op::kPack:
    case Op::kUnpack:
    case Op::kSelp:
    case Op::kPopc:
    case Op::kClz:
    case Op::kBfind:
    case Op::kBrev:
    case Op::kBfe:
    case Op::kBfi:
    case Op::kPrmt:
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
    case Op::kNot:
    case Op::kCnot:
    case Op::kShl:
    case Op::kShr:
    case Op::kShf:
    case Op::kLop3:
    case Op::kMul24:
    case Op::kMad24:
    case Op::kSad:
      return {K::kCompute, InstrClass::kInt};
    default:
      return {K::kCompute, arith()};
  }
}

Kernel::Kernel(std::shared_ptr<const Module> module, const std::string& entry)
    : impl_(std::make_unique<Impl>()) {
  Impl& k = *impl_;
  k.module = std::move(module);
  const Module& m = *k.module;
  std::uint32_t index = ~0u;
  for (std::uint32_t i = 0; i < m.functions.size(); ++i)
    if (m.functions[i].name == entry && m.functions[i].is_entry && m.functions[i].defined) index = i;
  if (index == ~0u) throw ParseError(m.file + ": no kernel (.entry) named '" + entry + "'");
  k.name = entry;
  k.params = m.functions[index].params;
  Flattener fl(m, k);
  fl.run(index);
  fl.fix_dynamic();
  k.cfg = build_cfg(k.code);
  k.meta.resize(k.code.size());
  for (std::size_t i = 0; i < k.code.size(); ++i) {
    const Instr& in = k.code[i];
    InstrMeta& mt = k.meta[i];
    mt.cost = cost_of(in);
    mt.fast = fast_compute_of(in);
    auto add = [&](std::uint32_t r) {
      if (r < k.vars && mt.nreads < mt.reads.size()) mt.reads[mt.nreads++] = r;
    };
    for (unsigned s = 0; s < in.nsrc; ++s)
      if (in.src[s].kind == Operand::Kind::kReg) add(in.src[s].reg);
    if (in.addr.kind == Operand::Kind::kReg && in.addr.reg != kNoReg) add(in.addr.reg);
    if (in.guard != kNoReg) add(in.guard);
    mt.reconverge =
        (in.op == Op::kBra || in.op == Op::kRet) ? k.cfg.reconvergence_pc(static_cast<std::uint32_t>(i)) : 0;
  }
  k.zeroed_registers = registers_to_zero(k.code, k.cfg, k.vars);
  const unsigned units = live_register_units(k.code, k.cfg, fl.program_registers_);
  // Registers are allocated to a warp in units of 256 (8 a thread) on Volta and Turing; a thread has at most
  // 255 (ptxas spills beyond). docs/cuda.md, "Registers per thread".
  k.registers_per_thread = std::min(255u, std::max(8u, (units + 7) / 8 * 8));
}

Kernel::~Kernel() = default;
const std::string& Kernel::name() const {
  return impl_->name;
}
const std::vector<ParamInfo>& Kernel::params() const {
  return impl_->params;
}
unsigned Kernel::registers_per_thread() const {
  return impl_->registers_per_thread;
}
std::uint64_t Kernel::static_shared_bytes() const {
  return impl_->static_shared;
}
std::uint64_t Kernel::local_bytes_per_thread() const {
  return impl_->local_bytes;
}
const std::vector<Instr>& Kernel::code() const {
  return impl_->code;
}
const ControlFlowGraph& Kernel::cfg() const {
  return impl_->cfg;
}
const Module& Kernel::module() const {
  return *impl_->module;
}

}  // namespace numagpu::ptx
