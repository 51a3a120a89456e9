#include "kernels/simt.hpp"

#include <algorithm>
#include <string>

namespace numagpu::kernels {

namespace {

std::uint32_t full_mask(unsigned threads_in_warp) {
  return threads_in_warp >= 32 ? ~0u : ((1u << threads_in_warp) - 1u);
}

}  // namespace

Cta::Cta(Dim3 grid, Dim3 block, Dim3 block_idx, unsigned line_bytes, const Latencies& latencies)
    : gridDim(grid),
      blockDim(block),
      blockIdx(block_idx),
      threads_(static_cast<unsigned>(block.count())),
      line_bytes_(line_bytes),
      latency_(latencies),
      dependent_(std::any_of(latencies.begin(), latencies.begin() + kNonblockingLoads,
                             [](std::uint16_t l) { return l > 0; })),
      nonblocking_loads_(dependent_ && latencies[kNonblockingLoads] != 0),
      shared_phases_(latencies[kSharedPhases] != 0),
      mask_((threads_ + kWarpSize - 1) / kWarpSize),
      warps_(mask_.size()),
      tid_(make_tid()) {
  clock_.assign(mask_.size(), 0);
  settled_.assign(mask_.size(), 0);
  loads_issued_.assign(mask_.size(), 0);
  waited_through_.assign(mask_.size(), 0);
  passes_.assign(mask_.size(), 1);
  replay_word_.assign(mask_.size(), ~std::uint64_t(0));
  for (unsigned w = 0; w < mask_.size(); ++w)
    mask_[w] = full_mask(std::min(kWarpSize, threads_ - w * kWarpSize));
  exited_.assign(mask_.size(), 0);
}

// threadIdx with x fastest, as CUDA numbers the threads of a block (and so forms its warps).
Cta::Tid Cta::make_tid() {
  Tid t{V<std::int64_t>(*this, 0), V<std::int64_t>(*this, 0), V<std::int64_t>(*this, 0)};
  for (unsigned i = 0; i < threads_; ++i) {
    t.x[i] = i % blockDim.x;
    t.y[i] = (i / blockDim.x) % blockDim.y;
    t.z[i] = i / (blockDim.x * blockDim.y);
  }
  return t;
}

bool Cta::any_active() const {
  for (std::uint32_t m : mask_)
    if (m) return true;
  return false;
}

void WarpRecordView::unpack(std::size_t index, Step& out) const {
  const PackedStep& p = steps[index];
  out.kind = p.kind;
  out.cycles = p.cycles;
  out.scoreboarded = p.kind == Step::Kind::kLoad && (p.instructions & kLoadGoesPast) != 0;
  out.texture = p.kind == Step::Kind::kLoad && (p.instructions & kLoadTexture) != 0;
  if (p.kind == Step::Kind::kWait) {
    out.wait_through = p.instructions;
    out.instructions = 0;
    out.line_count = 0;
    out.thread_instructions = 0;
    return;
  }
  out.instructions = p.kind == Step::Kind::kCompute ? p.instructions : 1;
  out.classes.fill(0);
  out.shared_replays = out.constant_passes = out.fp64_passes = out.register_bank_conflicts = 0;
  out.shuffle_passes = 0;
  if (p.kind == Step::Kind::kCompute) {
    std::uint64_t threads = 0;
    for (std::uint32_t r = p.first_line; r < p.first_line + p.line_count; ++r) {
      const auto n = static_cast<std::uint32_t>(run_count(lines[r]));
      const auto code = static_cast<std::uint8_t>(run_class(lines[r]));
      std::uint32_t* passes = code == kSharedReplayRun           ? &out.shared_replays
                              : code == kConstantPassRun         ? &out.constant_passes
                              : code == kFp64PassRun             ? &out.fp64_passes
                              : code == kRegisterBankConflictRun ? &out.register_bank_conflicts
                              : code == kShufflePassRun          ? &out.shuffle_passes
                                                                 : nullptr;
      if (passes) {
        *passes += n;
        continue;
      }
      out.classes[code] += n;
      threads += std::uint64_t(n) * run_lanes(lines[r]);
    }
    // Held below kFullWarps (which means "not counted"): a step of over 134 M instructions saturates.
    out.thread_instructions =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(threads, Step::kFullWarps - 1));
    out.line_count = 0;
    return;
  }
  out.thread_instructions = p.lanes;
  out.line_count = p.line_count;
  std::copy(lines + p.first_line, lines + p.first_line + p.line_count, out.lines.begin());
  std::copy(sectors + p.first_line, sectors + p.first_line + p.line_count, out.sectors.begin());
}

std::uint64_t record_bytes(const WarpRecord& r) {
  return r.steps.capacity() * sizeof(PackedStep) + r.lines.capacity() * sizeof(std::uint64_t) +
         r.sectors.capacity() * sizeof(std::uint8_t);
}

namespace {
std::string limit_text(std::uint64_t bytes, std::uint64_t held, std::uint64_t limit) {
  return std::to_string(bytes) + " B of recorded steps" +
         (held ? " beside the " + std::to_string(held) + " B of the CTAs resident with it" : std::string()) +
         ", more than checks.max_record_bytes (" + std::to_string(limit) + " B) allows";
}
}  // namespace

RecordLimitExceeded::RecordLimitExceeded(std::uint64_t bytes_so_far, std::uint64_t held_by_others,
                                         std::uint64_t limit_bytes)
    : std::runtime_error("a CTA took " + limit_text(bytes_so_far, held_by_others, limit_bytes)),
      bytes(bytes_so_far),
      held(held_by_others),
      limit(limit_bytes) {}

std::string RecordLimitExceeded::message() const {
  return "kernel '" + program + "': " + detail();
}

std::string RecordLimitExceeded::detail() const {
  return "CTA " + std::to_string(cta) + " took " + limit_text(bytes, held, limit);
}

std::uint64_t Cta::records_bytes() const {
  std::uint64_t total = 0;
  for (const WarpRecord& r : warps_)
    total += record_bytes(r);
  return total;
}

void Cta::look_at_bounds() {
  until_look_ = kLookEvery;
  if (!bounds_) return;
  if (bounds_->stop_requested && bounds_->stop_requested()) throw RecordingStopped{};
  if (bounds_->limit == 0) return;
  const std::uint64_t bytes = records_bytes();
  if (bounds_->held + bytes > bounds_->limit) throw RecordLimitExceeded(bytes, bounds_->held, bounds_->limit);
}

PackedStep& Cta::open_compute_step(WarpRecord& r) {
  std::vector<PackedStep>& steps = r.steps;
  // A step holds at most 65,535 runs (line_count's width): a longer alternation continues in a new compute
  // step (the warp issues it right after, one issue slot later).
  if (steps.empty() || steps.back().kind != Step::Kind::kCompute || steps.back().line_count == 0xFFFF) {
    steps.emplace_back();
    steps.back().first_line = static_cast<std::uint32_t>(r.lines.size());
  }
  return steps.back();
}

void Cta::add_instructions(unsigned w, InstrClass cls, unsigned n, unsigned cycles) {
  WarpRecord& r = warps_[w];
  PackedStep& s = open_compute_step(r);
  s.cycles += cycles;
  s.instructions += n;
  r.instructions[static_cast<unsigned>(cls)] += n;
  append_run(r, s, run_word(cls, active_lanes(w), n));
  recorded();
}

void Cta::add_passes(unsigned w, std::uint8_t code, unsigned n) {
  if (n == 0) return;
  WarpRecord& r = warps_[w];
  // After issue_one, so the current step is the compute step of the instruction the passes belong to (or,
  // past a full step, a new one that holds only them). A pass code takes the class's byte, with no lanes.
  PackedStep& s = open_compute_step(r);
  const std::uint64_t word = std::uint64_t(n) << kRunCountShift | code;
  // With phases every wide shared load has replays, one word after each between the step's instructions
  // (sgemm: 32 a step a warp): they go into the step's first replay word instead, since the SM takes a
  // step's passes as one sum (WarpRecord::unpack). Without phases, as before: a word where it falls.
  if (shared_phases_ && code == kSharedReplayRun) {
    std::uint64_t& at = replay_word_[w];
    if (at >= s.first_line && at < std::uint64_t(s.first_line) + s.line_count &&
        static_cast<std::uint8_t>(run_class(r.lines[at])) == code) {
      r.lines[at] += word & ~((std::uint64_t(1) << kRunCountShift) - 1);
      return;
    }
    append_run(r, s, word);
    at = r.lines.size() - 1;
    return;
  }
  append_run(r, s, word);
}

void Cta::append_run(WarpRecord& r, PackedStep& s, std::uint64_t word) {
  // The step's runs are the last line_count words of r.lines: extend the last one when its class (or pass
  // code) and active threads are the word's, else start a new run.
  constexpr std::uint64_t kKind = (std::uint64_t(1) << kRunCountShift) - 1;
  if (s.line_count > 0 && (r.lines.back() & kKind) == (word & kKind)) {
    r.lines.back() += word & ~kKind;
    return;
  }
  r.lines.push_back(word);
  r.sectors.push_back(0);
  ++s.line_count;
}

void Cta::charge(InstrClass cls, unsigned n) {
  for (unsigned w = 0; w < mask_.size(); ++w) {
    if (!mask_[w]) continue;
    // One issue cycle per warp instruction: consecutive instructions of a warp form one compute step.
    add_instructions(w, cls, n, n);
    clock_[w] += n;
  }
}

namespace {
// The rest of each division's sequence after the instruction that stands for its result (the reasons and
// sources are with charge_fp32_division_sequence and its siblings in simt.hpp).
struct SequencePart {
  InstrClass cls;
  unsigned n;
};
constexpr SequencePart kFp32DivisionRest[] = {
    {InstrClass::kSfu, 1},     // MUFU.RCP
    {InstrClass::kFp32, 5},    // FCHK and the four FFMAs before the result's
    {InstrClass::kBranch, 1},  // @!P0 BRA past the slow path
};
constexpr SequencePart kFp64DivisionRest[] = {
    {InstrClass::kSfu, 1},     // MUFU.RCP64H
    {InstrClass::kInt, 1},     // the move of the reciprocal's low word
    {InstrClass::kFp64, 5},    // 3 DFMAs refining the reciprocal, the DMUL and the DFMA before the result's
    {InstrClass::kFp32, 2},    // FFMA and FSETP, the slow path's test
    {InstrClass::kBranch, 1},  // @P0 BRA past the slow path
};
constexpr SequencePart kSignedDivisionRest[] = {
    {InstrClass::kSfu, 3},   // I2F.RP, MUFU.RCP, F2I.FTZ.U32.TRUNC
    {InstrClass::kInt, 20},  // the IABS, IMAD, IMAD.HI, ISETP, IADD3, LOP3 around them
};
constexpr SequencePart kUnsignedDivisionRest[] = {
    {InstrClass::kSfu, 3}, {InstrClass::kInt, 14},  // no IABS and no sign
};
}  // namespace

void Cta::charge_fp32_division_sequence() {
  if (!dependent_) return;
  for (const SequencePart& p : kFp32DivisionRest)
    charge(p.cls, p.n);
}

void Cta::charge_fp64_division_sequence() {
  if (!dependent_) return;
  for (const SequencePart& p : kFp64DivisionRest)
    charge(p.cls, p.n);
}

void Cta::hold_fp64_pipe_once_more() {
  for (unsigned w = 0; w < mask_.size(); ++w)
    if (mask_[w]) add_passes(w, kFp64PassRun, 1);
}

void Cta::sources_in_one_register_bank() {
  for (unsigned w = 0; w < mask_.size(); ++w)
    if (mask_[w]) add_passes(w, kRegisterBankConflictRun, 1);
}

void Cta::charge_int_division_sequence(bool is_signed) {
  if (!dependent_) return;
  for (const SequencePart& p : is_signed ? kSignedDivisionRest : kUnsignedDivisionRest)
    charge(p.cls, p.n);
}

void Cta::warp_division_rest(unsigned w, std::uint32_t lanes, unsigned slot, bool is_signed) {
  if (!dependent_) return;
  mask_[w] = lanes;
  const auto rest = [&](const auto& parts) {
    for (const SequencePart& p : parts) {
      add_instructions(w, p.cls, p.n, p.n);
      clock_[w] += p.n;
    }
  };
  if (slot == kDivLatency + 1)
    rest(kFp32DivisionRest);
  else if (slot == kDivLatency + 2)
    rest(kFp64DivisionRest);
  else if (is_signed)
    rest(kSignedDivisionRest);
  else
    rest(kUnsignedDivisionRest);
}

void Cta::warp_hold_fp64_pipe_once_more(unsigned w, std::uint32_t lanes) {
  mask_[w] = lanes;
  add_passes(w, kFp64PassRun, 1);
}

std::uint32_t Cta::issue_one(unsigned w, InstrClass cls, unsigned cycles, std::uint32_t operands_ready,
                             unsigned latency) {
  if (!dependent_) {
    add_instructions(w, cls, 1, cycles);
    clock_[w] += cycles;
    return 0;
  }
  const std::uint32_t at = std::max(clock_[w], resolve_pending(w, operands_ready));
  add_instructions(w, cls, 1, at + cycles - clock_[w]);  // the stall, then its issue cycles
  clock_[w] = at + cycles;
  const std::uint16_t own = latency != kClassLatency ? latency_[latency] : 0;
  const std::uint32_t ready = at + cycles - 1 + (own ? own : latency_[static_cast<unsigned>(cls)]);
  settled_[w] = std::max(settled_[w], ready);
  return ready;
}

std::uint32_t Cta::form_warp_address(unsigned w, std::uint64_t base, std::uint64_t element_bytes,
                                     const V<std::int64_t>& index) {
  // The key: the warp, the array and every lane's index (inactive lanes too: a register holds a value in
  // each lane), each word mixed in with a multiply-xorshift before the next enters (every step is a
  // bijection, so keys that differ in one word differ), then splitmix64's finalizer. A 64-bit hash, not
  // the words themselves: two different keys could still collide, with a chance of about 2^-64 a pair.
  const unsigned first = w * kWarpSize, lanes = std::min(kWarpSize, threads_ - first);
  std::uint64_t key = 0;
  const auto mix = [&key](std::uint64_t v) {
    key = (key ^ v) * 0xff51afd7ed558ccdull;
    key ^= key >> 32;
  };
  mix(w);
  mix(base);
  mix(element_bytes);
  bool uniform = true;
  for (unsigned t = first; t < first + lanes; ++t) {
    mix(static_cast<std::uint64_t>(index[t]));
    uniform = uniform && index[t] == index[first];
  }
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ull;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebull;
  key ^= key >> 31;
  std::uint32_t& formed = addresses_formed_[key];
  if ((mask_[w] & ~formed) == 0) return index.ready(w);  // in a register already
  formed |= uniform ? full_mask(lanes) : mask_[w];
  return issue_one(w, InstrClass::kInt, 1, index.ready(w));
}

void Cta::wait_settles() {
  if (!dependent_) return;
  for (unsigned w = 0; w < mask_.size(); ++w) {
    if (!mask_[w]) continue;
    clock_[w] = std::max(clock_[w], settled_[w]);
    waited_through_[w] = loads_issued_[w];  // the SM holds the warp until every line it asked for is back
  }
}

std::uint32_t Cta::wait_for_load(unsigned w, std::uint32_t load) {
  if (load <= waited_through_[w]) return 0;  // ready since that wait
  WarpRecord& r = warps_[w];
  PackedStep s;
  s.kind = Step::Kind::kWait;
  s.instructions = load;
  s.first_line = static_cast<std::uint32_t>(r.lines.size());
  r.steps.push_back(s);
  recorded();
  waited_through_[w] = load;
  // Whatever the warp had in flight is taken as done when the load is back, as at a load it waits at.
  clock_[w] = std::max(clock_[w], settled_[w]);
  return clock_[w];
}

void Cta::branch_on(const V<bool>& cond) {
  for (unsigned w = 0; w < mask_.size(); ++w)
    if (mask_[w]) issue_one(w, InstrClass::kBranch, 1, dependent_ ? cond.ready(w) : 0);
}

void Cta::memory_step(Step::Kind kind, const std::vector<std::uint64_t>& addresses_by_thread,
                      unsigned bytes) {
  for (unsigned w = 0; w < mask_.size(); ++w)
    if (mask_[w]) warp_memory_step(w, kind, addresses_by_thread.data() + std::size_t(w) * kWarpSize, bytes);
}

void Cta::memory_step_multi(Step::Kind kind, const std::vector<std::uint64_t>& addresses, unsigned per_thread,
                            unsigned bytes) {
  for (unsigned w = 0; w < mask_.size(); ++w) {
    if (!mask_[w]) continue;
    warp_addresses_.clear();
    const std::uint64_t* first = addresses.data() + std::size_t(w) * kWarpSize * per_thread;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
      if ((mask_[w] >> lane) & 1u)
        warp_addresses_.insert(warp_addresses_.end(), first + std::size_t(lane) * per_thread,
                               first + std::size_t(lane + 1) * per_thread);
    record_memory_step(w, kind, bytes);
  }
}

void Cta::warp_memory_step(unsigned w, Step::Kind kind, const std::uint64_t* lane_addresses, unsigned bytes) {
  warp_addresses_.clear();
  for (unsigned lane = 0; lane < kWarpSize; ++lane)
    if ((mask_[w] >> lane) & 1u) warp_addresses_.push_back(lane_addresses[lane]);
  record_memory_step(w, kind, bytes);
}

void Cta::record_memory_step(unsigned w, Step::Kind kind, unsigned bytes) {
  coalesce(warp_addresses_, bytes, line_bytes_, scratch_step_);
  WarpRecord& r = warps_[w];
  PackedStep p;
  p.kind = kind;
  p.lanes = static_cast<std::uint8_t>(active_lanes(w));
  p.line_count = static_cast<std::uint16_t>(scratch_step_.line_count);
  p.first_line = static_cast<std::uint32_t>(r.lines.size());
  r.lines.insert(r.lines.end(), scratch_step_.lines.begin(), scratch_step_.lines.begin() + p.line_count);
  r.sectors.insert(r.sectors.end(), scratch_step_.sectors.begin(),
                   scratch_step_.sectors.begin() + p.line_count);
  r.steps.push_back(p);
  scratch_step_.line_count = 0;
  recorded();
}

void Cta::await_one(unsigned w, std::uint32_t at) {
  if (!dependent_) return;
  at = resolve_pending(w, at);
  if (at <= clock_[w]) return;
  // The stall belongs to the compute step before the memory instruction (a step of no instructions when
  // there is none).
  WarpRecord& r = warps_[w];
  if (r.steps.empty() || r.steps.back().kind != Step::Kind::kCompute) {
    r.steps.emplace_back();
    r.steps.back().first_line = static_cast<std::uint32_t>(r.lines.size());
  }
  r.steps.back().cycles += at - clock_[w];
  clock_[w] = at;
}

void Cta::shared_access(const std::vector<std::uint64_t>& byte_offsets, unsigned bytes, bool load) {
  for (unsigned w = 0; w < mask_.size(); ++w)
    if (mask_[w])
      passes_[w] = warp_shared_passes(w, byte_offsets.data() + std::size_t(w) * kWarpSize, bytes, load);
  // the caller issues the access (issue_one), after its operands
}

unsigned Cta::bank_passes(std::uint32_t lanes, const std::uint64_t* lane_offsets, unsigned bytes) {
  constexpr unsigned kBanks = 32, kBankBytes = 4;
  // The distinct words the lanes touch (an access may straddle words), sorted; the bank with the most
  // distinct words sets the passes; threads reading one word are served at once. Fixed storage: this runs
  // for every shared access of every warp.
  constexpr unsigned kMaxWords = 4 * kWarpSize;
  std::array<std::uint64_t, kMaxWords> words;
  unsigned n = 0;
  // The common case is told as the words are gathered: no bank holds two distinct words (one pass).
  std::array<std::uint64_t, kBanks> first_word;  // the first word seen in each bank of `used`
  std::uint32_t used = 0;
  bool conflict = false;
  for (std::uint32_t m = lanes; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctz(m));
    const std::uint64_t first = lane_offsets[lane] / kBankBytes;
    const std::uint64_t last = (lane_offsets[lane] + bytes - 1) / kBankBytes;
    for (std::uint64_t word = first; word <= last && n < kMaxWords; ++word) {
      words[n++] = word;
      const unsigned bank = static_cast<unsigned>(word % kBanks);
      if (!((used >> bank) & 1u)) {
        used |= 1u << bank;
        first_word[bank] = word;
      } else if (first_word[bank] != word) {
        conflict = true;
      }
    }
  }
  unsigned passes = 1;
  if (conflict) {
    std::sort(words.begin(), words.begin() + n);
    std::array<unsigned, kBanks> per_bank{};
    for (unsigned i = 0; i < n; ++i) {
      if (i > 0 && words[i] == words[i - 1]) continue;
      passes = std::max(passes, ++per_bank[words[i] % kBanks]);
    }
  }
  return passes;
}

namespace {

// Lanes of a shared access's phase: the shared pipe moves 128 B a clock (32 banks of 4 B), so a phase is
// as many lanes as 128 B of data hold: 32 for accesses of up to 4 bytes a lane, 16 for 8, 8 for 16.
unsigned phase_lanes(unsigned bytes) {
  return bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
}

// True when the active lanes of `lanes` pair up on addresses (NVIDIA's forum answer for CC 7.0-7.5: lane n
// and n ^ 1 alike for every pair, or lane n and n ^ 2 alike; a uniform address does both): the data
// returned for a pair is one lane's, so a phase carries twice the lanes.
bool lanes_pair_up(std::uint32_t lanes, const std::uint64_t* lane_offsets) {
  const auto pairs_by = [&](unsigned distance) {
    for (std::uint32_t m = lanes; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctz(m)), other = lane ^ distance;
      if (((lanes >> other) & 1u) && lane_offsets[lane] != lane_offsets[other]) return false;
    }
    return true;
  };
  return pairs_by(1) || pairs_by(2);
}

// The phases of a warp access whose lanes are `lanes`, `width` lanes a phase, that hold an active lane.
unsigned filled_phases(std::uint32_t lanes, unsigned width) {
  unsigned phases = 0;
  const std::uint32_t phase_mask = width >= kWarpSize ? ~0u : (1u << width) - 1;
  for (unsigned first = 0; first < kWarpSize; first += width)
    if ((lanes >> first) & phase_mask) ++phases;
  return phases;
}

}  // namespace

unsigned Cta::warp_shared_passes(unsigned w, const std::uint64_t* lane_offsets, unsigned bytes, bool load) {
  const std::uint32_t lanes = mask_[w];
  unsigned passes = 0;
  if (!shared_phases_) {
    passes = bank_passes(lanes, lane_offsets, bytes);
  } else {
    unsigned width = phase_lanes(bytes);
    if (load && width < kWarpSize && lanes_pair_up(lanes, lane_offsets)) width *= 2;
    const std::uint32_t phase_mask = width >= kWarpSize ? ~0u : (1u << width) - 1;
    for (unsigned first = 0; first < kWarpSize; first += width) {
      const std::uint32_t phase = lanes & (phase_mask << first);
      if (phase) passes += bank_passes(phase, lane_offsets, bytes);
    }
  }
  counters_.shared_accesses += 1;
  counters_.shared_wavefronts += passes;
  return passes;
}

void Cta::shared_broadcast(std::uint32_t* result, unsigned bytes) {
  for (unsigned w = 0; w < mask_.size(); ++w) {
    if (!mask_[w]) continue;
    // One address: no bank conflict, and every lane pairs up; a phase per filled phase of twice the width.
    const unsigned passes =
        shared_phases_ ? filled_phases(mask_[w], std::min(2 * phase_lanes(bytes), kWarpSize)) : 1;
    const std::uint32_t ready = issue_one(w, InstrClass::kShared, passes, 0);
    add_passes(w, kSharedReplayRun, passes - 1);
    if (result) result[w] = ready;
    counters_.shared_accesses += 1;
    counters_.shared_wavefronts += passes;
  }
}

void Cta::syncthreads() {
  for (unsigned w = 0; w < warps_.size(); ++w) {
    PackedStep s;
    s.kind = Step::Kind::kBarrier;
    s.lanes = static_cast<std::uint8_t>(active_lanes(w));
    s.cycles = 1;
    warps_[w].steps.push_back(s);
    if (dependent_) clock_[w] = std::max(clock_[w], settled_[w]);  // the warp waits at the barrier
    recorded();
  }
}

void Cta::restore(const std::vector<std::uint32_t>& saved) {
  for (unsigned w = 0; w < mask_.size(); ++w)
    mask_[w] = saved[w] & ~exited_[w];
}

void Cta::narrow(const std::vector<std::uint32_t>& saved, const V<bool>& cond, bool value) {
  for (unsigned w = 0; w < mask_.size(); ++w) {
    std::uint32_t m = 0;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const unsigned t = w * kWarpSize + lane;
      if (t < threads_ && ((saved[w] >> lane) & 1u) && cond[t] == value) m |= 1u << lane;
    }
    mask_[w] = m & ~exited_[w];
  }
}

void Cta::if_(const V<bool>& cond, const std::function<void()>& then) {
  if_else(cond, then, nullptr);
}

void Cta::if_else(const V<bool>& cond, const std::function<void()>& then,
                  const std::function<void()>& otherwise) {
  branch_on(cond);  // every warp with an active thread executes the branch once
  const std::vector<std::uint32_t> saved = mask_;
  narrow(saved, cond, true);
  if (any_active()) then();
  if (otherwise) {
    narrow(saved, cond, false);
    if (any_active()) otherwise();
  }
  restore(saved);  // the immediate post-dominator: the end of the construct
}

void Cta::while_(const std::function<V<bool>()>& cond, const std::function<void()>& body) {
  const std::vector<std::uint32_t> saved = mask_;
  for (;;) {
    const V<bool> c = cond();
    branch_on(c);
    const std::vector<std::uint32_t> before = mask_;
    narrow(before, c, true);
    if (!any_active()) break;
    body();
  }
  restore(saved);
}

void Cta::uniform_loop(std::uint64_t trips, const std::function<void(std::uint64_t)>& body) {
  for (std::uint64_t i = 0; i < trips; ++i) {
    body(i);
    charge(InstrClass::kBranch);
  }
}

void Cta::exit_if(const V<bool>& cond) {
  branch_on(cond);
  for (unsigned w = 0; w < mask_.size(); ++w) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      const unsigned t = w * kWarpSize + lane;
      if (t < threads_ && ((mask_[w] >> lane) & 1u) && cond[t]) exited_[w] |= 1u << lane;
    }
    mask_[w] &= ~exited_[w];
  }
}

// ---- one warp at a time ----------------------------------------------------------------------------

std::uint32_t Cta::warp_compute(unsigned w, std::uint32_t lanes, InstrClass cls, std::uint32_t operands_ready,
                                unsigned latency) {
  mask_[w] = lanes;
  if (!dependent_) {
    // Most instructions extend the warp's last run (same class, same lanes) of its open compute step: that
    // case of issue_one and add_instructions done here, without their calls (a PTX warp issues one by one).
    WarpRecord& r = warps_[w];
    if (!r.steps.empty()) {
      PackedStep& s = r.steps.back();
      constexpr std::uint64_t kKind = (std::uint64_t(1) << kRunCountShift) - 1;
      const std::uint64_t word = run_word(cls, active_lanes(w), 1);
      if (s.kind == Step::Kind::kCompute && s.line_count != 0 && s.line_count != 0xFFFF &&
          (r.lines.back() & kKind) == (word & kKind)) {
        s.cycles += 1;
        s.instructions += 1;
        r.instructions[static_cast<unsigned>(cls)] += 1;
        r.lines.back() += word & ~kKind;
        clock_[w] += 1;
        recorded();
        return 0;
      }
    }
  }
  return issue_one(w, cls, 1, operands_ready, latency);
}

void Cta::warp_compute_run(unsigned w, std::uint32_t lanes, InstrClass cls, unsigned n) {
  if (n == 0) return;
  warp_compute(w, lanes, cls, 0);  // the first: it may open a step or a run
  WarpRecord& r = warps_[w];
  PackedStep& s = r.steps.back();
  if (dependent_ || s.line_count == 0xFFFF) {  // the next one would open a new step: one by one
    for (unsigned i = 1; i < n; ++i)
      warp_compute(w, lanes, cls, 0);
    return;
  }
  // The rest extend the run the first ended in, as warp_compute does for each.
  const unsigned rest = n - 1;
  s.cycles += rest;
  s.instructions += rest;
  r.instructions[static_cast<unsigned>(cls)] += rest;
  r.lines.back() += std::uint64_t(rest) << kRunCountShift;
  clock_[w] += rest;
  for (unsigned i = 0; i < rest; ++i)
    recorded();  // each as its own call counts (the bounds are looked at on the same counts)
}

void Cta::warp_global_access(unsigned w, std::uint32_t lanes, Step::Kind kind,
                             const std::uint64_t* lane_addresses, unsigned bytes,
                             std::uint32_t operands_ready) {
  mask_[w] = lanes;
  await_one(w, operands_ready);
  warp_memory_step(w, kind, lane_addresses, bytes);
  // A load's or an atomic's value comes back at the step's end, when the warp has waited for it and for
  // everything else in flight (as load() and atomic_add() do); a store does not wait.
  if (dependent_ && kind != Step::Kind::kStore) clock_[w] = std::max(clock_[w], settled_[w]);
}

std::uint32_t Cta::warp_shared_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_offsets,
                                      unsigned bytes, std::uint32_t operands_ready) {
  mask_[w] = lanes;
  // The PTX front end does not tell a load from a store here; its paired-lane stores are rare.
  const unsigned passes = warp_shared_passes(w, lane_offsets, bytes, true);
  const std::uint32_t ready = issue_one(w, InstrClass::kShared, passes, operands_ready);
  add_passes(w, kSharedReplayRun, passes - 1);
  return ready;
}

std::uint32_t Cta::warp_constant_access(unsigned w, std::uint32_t lanes, const std::uint64_t* lane_addresses,
                                        std::uint32_t operands_ready) {
  mask_[w] = lanes;
  // Without dependent latencies the read issues in one cycle, as constant_load's does (the paper system).
  if (!dependent_) return issue_one(w, InstrClass::kInt, 1, 0);
  std::array<std::uint64_t, kWarpSize> seen;
  unsigned distinct = 0;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!((lanes >> lane) & 1u)) continue;
    if (std::find(seen.begin(), seen.begin() + distinct, lane_addresses[lane]) == seen.begin() + distinct)
      seen[distinct++] = lane_addresses[lane];
  }
  const std::uint32_t ready = issue_one(w, InstrClass::kInt, distinct, operands_ready);
  add_passes(w, kConstantPassRun, distinct);
  return ready;
}

void Cta::warp_barrier(unsigned w, std::uint32_t lanes) {
  mask_[w] = lanes;
  PackedStep s;
  s.kind = Step::Kind::kBarrier;
  s.lanes = static_cast<std::uint8_t>(active_lanes(w));
  s.cycles = 1;
  warps_[w].steps.push_back(s);
  if (dependent_) clock_[w] = std::max(clock_[w], settled_[w]);  // the warp waits at the barrier
  recorded();
}

}  // namespace numagpu::kernels
