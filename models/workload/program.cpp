#include "workload/program.hpp"

#include <algorithm>
#include <stdexcept>

#include "trace/convert.hpp"
#include "trace/trace.hpp"

namespace numagpu {

void coalesce(const std::vector<std::uint64_t>& addresses, unsigned bytes, unsigned line_bytes, Step& step) {
  auto add = [&step](std::uint64_t line) {
    for (unsigned i = 0; i < step.line_count; ++i) {
      if (step.lines[i] == line) return;
    }
    if (step.line_count < Step::kMaxLines) step.lines[step.line_count++] = line;
  };
  const std::uint64_t span = std::max(1u, bytes);
  for (std::uint64_t a : addresses) {
    const std::uint64_t first = a / line_bytes * line_bytes;
    const std::uint64_t last = (a + span - 1) / line_bytes * line_bytes;
    add(first);
    if (last != first) add(last);
  }
}

SyntheticProgram::SyntheticProgram(const KernelSpec& kernel, unsigned line_bytes)
    : kernel_(kernel), program_(kernel_, line_bytes) {}

bool SyntheticProgram::step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const {
  if (index >= program_.steps()) return false;
  const WarpStep s = program_.step(cta, warp, index);
  out.line_count = 0;
  switch (s.kind) {
    case WarpStep::Kind::kCompute:
      out.kind = Step::Kind::kCompute;
      out.cycles = std::max<std::uint32_t>(1, s.cycles);
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
  out.line_count = 1;
  return true;
}

namespace {

class TraceProgram : public KernelProgram {
 public:
  TraceProgram(const std::string& path, unsigned line_bytes, std::vector<std::string>* warnings)
      : line_bytes_(line_bytes) {
    auto reader = trace::open_kernel_trace(path);
    const trace::KernelInfo& info = reader->info();
    name_ = info.name;
    if (info.ctas() > 0xffffffffULL)
      throw trace::TraceError(path + ": grid of " + std::to_string(info.ctas()) +
                              " CTAs is too large to replay");
    ctas_ = static_cast<std::uint32_t>(info.ctas());
    grid_ = runtime::Grid{info.grid.x, info.grid.y, info.grid.z};
    warps_per_cta_ = info.warps_per_cta();
    blocks_.resize(ctas_);
    trace::ThreadBlock block;
    while (reader->next_block(block)) {
      if (block.cta_id >= ctas_) {
        throw trace::TraceError(path + ": thread block " + std::to_string(block.cta_id) +
                                " is outside the grid");
      }
      blocks_[block.cta_id] = std::move(block.warps);
      block = trace::ThreadBlock{};
    }
    if (warnings) warnings->insert(warnings->end(), reader->warnings().begin(), reader->warnings().end());
  }

  const std::string& name() const override { return name_; }
  std::uint32_t ctas() const override { return ctas_; }
  std::uint32_t warps_per_cta() const override { return warps_per_cta_; }
  runtime::Grid grid() const override { return grid_; }

  bool step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const override {
    const auto& warps = blocks_[cta];  // a CTA absent from the trace runs no instruction
    if (warp >= warps.size() || index >= warps[warp].size()) return false;
    const trace::WarpInstruction& in = warps[warp][index];
    out.line_count = 0;
    out.cycles = std::max<std::uint32_t>(1, in.compute_cycles);
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
        return false;
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
  runtime::Grid grid_;
  std::vector<std::vector<std::vector<trace::WarpInstruction>>> blocks_;  // [cta][warp][instruction]
};

}  // namespace

std::unique_ptr<KernelProgram> load_trace_program(const std::string& path, unsigned line_bytes,
                                                  std::vector<std::string>* warnings) {
  return std::make_unique<TraceProgram>(path, line_bytes, warnings);
}

}  // namespace numagpu
