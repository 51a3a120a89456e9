#include "workload/program.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "trace/convert.hpp"
#include "trace/ngt.hpp"
#include "trace/trace.hpp"

namespace numagpu {

void coalesce(const std::vector<std::uint64_t>& addresses, unsigned bytes, unsigned line_bytes, Step& step) {
  constexpr unsigned kSector = 32;
  const bool sectors = line_bytes > kSector && line_bytes <= 8 * kSector;
  const std::uint64_t span = std::max(1u, bytes);
  // Line sizes are powers of two in every configuration: a mask instead of a division (this runs for every
  // address of every memory instruction of a C++ kernel).
  const bool pow2 = (line_bytes & (line_bytes - 1)) == 0;
  const std::uint64_t line_mask = ~std::uint64_t(line_bytes - 1);
  auto line_of = [&](std::uint64_t a) { return pow2 ? a & line_mask : a / line_bytes * line_bytes; };
  // The sectors of `line` that bytes [from, to] (inclusive) touch.
  auto mask = [&](std::uint64_t line, std::uint64_t from, std::uint64_t to) -> std::uint8_t {
    if (!sectors) return 0;
    const std::uint64_t lo = (std::max(from, line) - line) / kSector;
    const std::uint64_t hi = (std::min(to, line + line_bytes - 1) - line) / kSector;
    return static_cast<std::uint8_t>(((2u << hi) - 1) & ~((1u << lo) - 1));
  };
  // Where each line already in the step is: a small open-addressed table, valid for this call (the stamp),
  // so that a warp touching many lines costs a probe per address rather than a scan of the step's lines.
  struct Index {
    std::array<std::uint64_t, 256> line;
    std::array<std::uint32_t, 256> stamp{};
    std::array<std::uint8_t, 256> at;
    std::uint32_t now = 0;
  };
  thread_local Index index;
  if (++index.now == 0) {  // the stamps wrapped: forget every entry
    index.stamp.fill(0);
    index.now = 1;
  }
  auto slot = [&](std::uint64_t line) {
    unsigned h = static_cast<unsigned>((line >> 5) * 0x9E3779B1u) >> 24;
    while (index.stamp[h] == index.now && index.line[h] != line)
      h = (h + 1) & 255;
    return h;
  };
  auto add = [&](std::uint64_t line, std::uint8_t touched) {
    const unsigned h = slot(line);
    if (index.stamp[h] == index.now) {
      step.sectors[index.at[h]] |= touched;
      return;
    }
    if (step.line_count < Step::kMaxLines) {
      index.stamp[h] = index.now;
      index.line[h] = line;
      index.at[h] = static_cast<std::uint8_t>(step.line_count);
      step.sectors[step.line_count] = touched;
      step.lines[step.line_count++] = line;
    }
  };
  for (unsigned i = 0; i < step.line_count; ++i) {  // lines the step already has
    const unsigned h = slot(step.lines[i]);
    index.stamp[h] = index.now;
    index.line[h] = step.lines[i];
    index.at[h] = static_cast<std::uint8_t>(i);
  }
  for (std::uint64_t a : addresses) {
    const std::uint64_t end = a + span - 1;
    const std::uint64_t first = line_of(a);
    const std::uint64_t last_line = line_of(end);
    add(first, mask(first, a, end));
    if (last_line != first) add(last_line, mask(last_line, a, end));
  }
}

SyntheticProgram::SyntheticProgram(const KernelSpec& kernel, unsigned line_bytes)
    : kernel_(kernel), program_(kernel_, line_bytes) {}

bool SyntheticProgram::step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const {
  if (index >= program_.steps()) return false;
  const WarpStep s = program_.step(cta, warp, index);
  out.line_count = 0;
  out.thread_instructions = Step::kFullWarps;  // a synthetic warp has all its threads
  switch (s.kind) {
    case WarpStep::Kind::kCompute:
      out.kind = Step::Kind::kCompute;
      out.cycles = std::max<std::uint32_t>(1, s.cycles);
      out.instructions = 1;
      out.classes.fill(0);  // unclassified: the SM counts it as kOther
      return true;
    case WarpStep::Kind::kLoad:
      out.kind = Step::Kind::kLoad;
      break;
    case WarpStep::Kind::kStore:
      out.kind = Step::Kind::kStore;
      break;
    case WarpStep::Kind::kAtomic:
      out.kind = Step::Kind::kAtomic;
      break;
  }
  out.lines[0] = s.address;
  out.sectors[0] = 0;  // the whole line
  out.line_count = 1;
  return true;
}

namespace {

// SIMT exit: a warp ends when the last of its threads has exited, not at its first EXIT. A compiler's bounds
// check is a predicated `@P EXIT`, traced with the mask of the threads that leave (often none). Each EXIT
// retires the live threads it names; the EXIT that retires the last one ends the warp, and whatever the list
// holds after it is dropped (counted in `dropped`). EXIT itself is not an instruction the SM issues, so the
// EXITs are removed from the list. `live` holds the warp's threads that exist (a CTA of 100 threads has 4 in
// its last warp); a list that ends with threads still live ends the warp where it ends.
void retire_exited_threads(std::vector<trace::WarpInstruction>& warp, std::uint32_t live,
                           std::uint64_t& dropped) {
  std::size_t kept = 0;
  std::size_t i = 0;
  for (; i < warp.size(); ++i) {
    if (warp[i].kind == trace::OpKind::kExit) {
      live &= ~warp[i].active_mask;
      if (live == 0) break;
      continue;
    }
    if (kept != i) warp[kept] = std::move(warp[i]);
    ++kept;
  }
  if (i < warp.size()) dropped += warp.size() - i - 1;
  warp.resize(kept);
}

class TraceProgram : public KernelProgram {
 public:
  TraceProgram(std::unique_ptr<trace::KernelTraceReader> reader, const std::string& path, unsigned line_bytes,
               std::vector<std::string>* warnings)
      : line_bytes_(line_bytes) {
    const trace::KernelInfo& info = reader->info();
    name_ = info.name;
    // The same bound as a synthetic kernel's workload.kernels.ctas: the replay keeps a slot per CTA of the
    // grid and the runtime dispatches every one, so a header claiming billions must not be believed.
    constexpr std::uint64_t kMaxReplayCtas = std::uint64_t(1) << 24;
    if (info.ctas() > kMaxReplayCtas)
      throw trace::TraceError(path + ": grid of " + std::to_string(info.ctas()) + " CTAs is more than the " +
                              std::to_string(kMaxReplayCtas) + " numagpu replays");
    ctas_ = static_cast<std::uint32_t>(info.ctas());
    grid_ = runtime::Grid{info.grid.x, info.grid.y, info.grid.z};
    warps_per_cta_ = info.warps_per_cta();
    // For occupancy and the kernel's shared-memory carveout, as the header states them (0: not stated).
    registers_per_thread_ = info.registers_per_thread;
    shared_bytes_per_cta_ = info.shared_mem_bytes;
    blocks_.resize(ctas_);
    trace::ThreadBlock block;
    std::uint64_t dropped = 0;  // instructions after a warp's end
    while (reader->next_block(block)) {
      if (block.cta_id >= ctas_) {
        throw trace::TraceError(path + ": thread block " + std::to_string(block.cta_id) +
                                " is outside the grid");
      }
      for (std::size_t w = 0; w < block.warps.size(); ++w) {
        const std::uint64_t threads =
            info.threads_per_cta() - std::min<std::uint64_t>(info.threads_per_cta(), w * trace::kWarpSize);
        const std::uint32_t live =
            threads >= trace::kWarpSize ? 0xffffffffu : (std::uint32_t(1) << threads) - 1;
        retire_exited_threads(block.warps[w], live, dropped);
      }
      blocks_[block.cta_id] = std::move(block.warps);
      block = trace::ThreadBlock{};
    }
    if (warnings) {
      warnings->insert(warnings->end(), reader->warnings().begin(), reader->warnings().end());
      if (dropped != 0) {
        warnings->push_back(path + ": " + std::to_string(dropped) +
                            " instruction(s) after the EXIT of a warp's last live thread ignored");
      }
    }
  }

  const std::string& name() const override { return name_; }
  std::uint32_t ctas() const override { return ctas_; }
  std::uint32_t warps_per_cta() const override { return warps_per_cta_; }
  std::uint32_t registers_per_thread() const override { return registers_per_thread_; }
  std::uint64_t shared_bytes_per_cta() const override { return shared_bytes_per_cta_; }
  runtime::Grid grid() const override { return grid_; }

  bool step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const override {
    const auto& warps = blocks_[cta];  // a CTA absent from the trace runs no instruction
    if (warp >= warps.size() || index >= warps[warp].size()) return false;
    const trace::WarpInstruction& in = warps[warp][index];
    out.line_count = 0;
    out.cycles = std::max<std::uint32_t>(1, in.compute_cycles);
    out.instructions = 1;
    out.classes.fill(0);  // a trace's compute is unclassified (kOther)
    out.thread_instructions = in.active_threads();
    switch (in.kind) {
      case trace::OpKind::kLoad:
        out.kind = Step::Kind::kLoad;
        break;
      case trace::OpKind::kStore:
        out.kind = Step::Kind::kStore;
        break;
      case trace::OpKind::kAtomic:
        out.kind = Step::Kind::kAtomic;
        break;
      case trace::OpKind::kBarrier:
        out.kind = Step::Kind::kBarrier;
        return true;
      case trace::OpKind::kExit:
        return false;  // not reached: the constructor removed every EXIT
      case trace::OpKind::kCompute:
        out.kind = Step::Kind::kCompute;
        return true;
    }
    coalesce(in.addresses, in.access_bytes, line_bytes_, out);
    if (out.line_count == 0) out.kind = Step::Kind::kCompute;  // every lane predicated off
    return true;
  }

 private:
  unsigned line_bytes_;
  std::string name_;
  std::uint32_t ctas_ = 0;
  std::uint32_t warps_per_cta_ = 0;
  std::uint32_t registers_per_thread_ = 0;
  std::uint64_t shared_bytes_per_cta_ = 0;
  runtime::Grid grid_;
  std::vector<std::vector<std::vector<trace::WarpInstruction>>> blocks_;  // [cta][warp][instruction]
};

// A mask of the `n` lowest lanes.
std::uint32_t low_lanes(std::uint32_t n) {
  return n >= trace::kWarpSize ? 0xffffffffu : (std::uint32_t(1) << n) - 1;
}

}  // namespace

void dump_program(const KernelProgram& program, std::uint32_t kernel_id, unsigned line_bytes,
                  const std::string& path) {
  trace::KernelInfo info;
  info.name = program.name();
  info.kernel_id = kernel_id;
  const runtime::Grid g = program.grid();
  info.grid = trace::Dim3{g.x, g.y, g.z};
  info.block = trace::Dim3{program.warps_per_cta() * trace::kWarpSize, 1, 1};
  trace::NgtWriter writer(path, info);
  trace::ThreadBlock block;
  Step step;
  for (std::uint32_t cta = 0; cta < program.ctas(); ++cta) {
    block.cta_id = cta;
    block.x = cta % g.x;
    block.y = (cta / g.x) % g.y;
    block.z = cta / (g.x * g.y);
    block.warps.assign(program.warps_per_cta(), {});
    for (std::uint32_t w = 0; w < program.warps_per_cta(); ++w) {
      auto& out = block.warps[w];
      for (std::uint32_t i = 0; program.step(cta, w, i, step); ++i) {
        trace::WarpInstruction in;
        in.pc = i * 16;
        // The instruction's active threads, as the step counts them (a compute step of several
        // instructions, which the dump writes as one, keeps all 32).
        const std::uint32_t threads =
            step.thread_instructions == Step::kFullWarps || step.instructions != 1
                ? trace::kWarpSize
                : std::min<std::uint32_t>(step.thread_instructions, trace::kWarpSize);
        in.active_mask = low_lanes(threads);
        switch (step.kind) {
          case Step::Kind::kCompute:
            // A long compute step becomes several instructions of at most 65535 cycles each.
            for (std::uint32_t left = step.cycles; left > 0;) {
              in.kind = trace::OpKind::kCompute;
              in.compute_cycles = static_cast<std::uint16_t>(std::min<std::uint32_t>(left, 65535));
              left -= in.compute_cycles;
              out.push_back(in);
            }
            continue;
          case Step::Kind::kWait:
            // A trace has no scoreboard: its loads replay as loads their warp waits for (Step::scoreboarded).
            continue;
          case Step::Kind::kBarrier:
            in.kind = trace::OpKind::kBarrier;
            break;
          case Step::Kind::kLoad:  // a texture fetch too: a trace has no texture mark (Step::texture)
            in.kind = trace::OpKind::kLoad;
            break;
          case Step::Kind::kStore:
            in.kind = trace::OpKind::kStore;
            break;
          case Step::Kind::kAtomic:
            in.kind = trace::OpKind::kAtomic;
            break;
        }
        if (in.kind != trace::OpKind::kBarrier) {
          if (step.line_count > trace::kWarpSize) {
            throw trace::TraceError(path + ": a step of " + std::to_string(step.line_count) +
                                    " lines does not fit one warp instruction");
          }
          // The step's threads (at least one per line), thread t accessing the whole of line t mod
          // line_count: the coalescer gives back exactly these lines, in this order.
          // A step of no lines (every thread predicated off) has no thread with an address.
          const std::uint32_t lanes =
              step.line_count == 0 ? 0 : std::max<std::uint32_t>(threads, step.line_count);
          in.active_mask = low_lanes(lanes);
          in.access_bytes = static_cast<std::uint8_t>(std::min(line_bytes, 255u));
          in.addresses.clear();
          for (std::uint32_t t = 0; t < lanes; ++t)
            in.addresses.push_back(step.lines[t % step.line_count]);
        }
        out.push_back(in);
      }
      trace::WarpInstruction exit;
      exit.kind = trace::OpKind::kExit;
      exit.active_mask = 0xffffffffu;
      out.push_back(exit);
    }
    writer.write_block(block);
  }
  writer.finish();
}

std::unique_ptr<KernelProgram> load_trace_program(const std::string& path, unsigned line_bytes,
                                                  std::vector<std::string>* warnings) {
  return load_trace_program(trace::open_kernel_trace(path), path, line_bytes, warnings);
}

std::unique_ptr<KernelProgram> load_trace_program(std::unique_ptr<trace::KernelTraceReader> reader,
                                                  const std::string& path, unsigned line_bytes,
                                                  std::vector<std::string>* warnings) {
  return std::make_unique<TraceProgram>(std::move(reader), path, line_bytes, warnings);
}

}  // namespace numagpu
