#include "kernels/cpp_program.hpp"

#include <algorithm>
#include <chrono>

namespace numagpu::kernels {

CppKernelProgram::CppKernelProgram(std::string name, std::unique_ptr<Kernel> kernel, unsigned line_bytes,
                                   const Latencies& latencies)
    : name_(std::move(name)),
      kernel_(std::move(kernel)),
      launch_(kernel_->launch()),
      line_bytes_(line_bytes),
      latencies_(latencies) {}

CppKernelProgram::~CppKernelProgram() {
  if (!bounds_) return;
  for (const auto& [cta, s] : resident_)  // a run that ended with CTAs still resident
    bounds_->held -= s.bytes;
}

CppKernelProgram::CtaSteps& CppKernelProgram::run(std::uint32_t cta) const {
  const auto begin = std::chrono::steady_clock::now();
  // A run being stopped (an interrupt) goes on dispatching CTAs until the simulation returns: each gets its
  // warps with nothing recorded, at no cost (building a CTA, or generating the kernel's input first, would
  // take seconds over a grid of 2^18 CTAs).
  if (bounds_ && bounds_->stop_requested && bounds_->stop_requested()) {
    CtaSteps& s = resident_[cta];
    s.warps.assign((launch_.block.count() + kWarpSize - 1) / kWarpSize, WarpRecord{});
    s.bytes = 0;
    s.ended.assign(s.warps.size(), false);
    return s;
  }
  const Dim3& g = launch_.grid;
  const Dim3 idx{cta % g.x, (cta / g.x) % g.y, cta / (g.x * g.y)};  // x fastest, as CUDA numbers blocks
  Cta c(g, launch_.block, idx, line_bytes_, latencies_);
  c.bound_by(bounds_.get());
  try {
    if (!prepared_) {
      kernel_->prepare();
      prepared_ = true;
    }
    // The CTAs of a kernel record about as much as each other: room for what the last one needed saves the
    // records' regrowth (a CTA runs a body of thousands of warp instructions).
    c.reserve_records(record_hint_.steps, record_hint_.lines);
    launch_.body(c);
  } catch (const RecordingStopped&) {
    // The run is being stopped (an interrupt): the CTA ends where its recording was cut.
  } catch (RecordLimitExceeded& e) {
    e.program = name_;
    e.cta = cta;
    if (bounds_) bounds_->fault = std::current_exception();
    throw;
  } catch (...) {
    if (bounds_) bounds_->fault = std::current_exception();
    throw;
  }
  CtaSteps& s = resident_[cta];
  s.warps = std::move(c.records());
  s.bytes = 0;
  for (const WarpRecord& w : s.warps)
    s.bytes += record_bytes(w);
  if (bounds_) bounds_->held += s.bytes;
  record_hint_ = {};
  for (const WarpRecord& w : s.warps) {
    record_hint_.steps = std::max(record_hint_.steps, w.steps.size());
    record_hint_.lines = std::max(record_hint_.lines, w.lines.size());
  }
  s.ended.assign(s.warps.size(), false);
  ++totals_.ctas_executed;
  for (const WarpRecord& w : s.warps)
    for (unsigned k = 0; k < w.instructions.size(); ++k)
      totals_.instructions[k] += w.instructions[k];
  totals_.shared_accesses += c.counters().shared_accesses;
  totals_.shared_wavefronts += c.counters().shared_wavefronts;
  totals_.max_resident_ctas = std::max<std::uint64_t>(totals_.max_resident_ctas, resident_.size());
  totals_.generation_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return s;
}

bool CppKernelProgram::step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, Step& out) const {
  // The common case, a resident warp with steps left, reads the flat table only (kernels/resident_warps.hpp).
  if (const WarpRecordView* v = warps_.find(cta, warp); v && index < v->step_count) {
    v->unpack(index, out);
    return true;
  }
  auto it = resident_.find(cta);
  if (it == resident_.end()) {
    CtaSteps& s = run(cta);
    for (std::uint32_t w = 0; w < s.warps.size(); ++w)
      warps_.add(cta, w, s.warps[w].view());
    it = resident_.find(cta);
  }
  CtaSteps& s = it->second;
  const WarpRecord& w = s.warps[warp];
  if (index < w.steps.size()) {
    w.unpack(index, out);
    return true;
  }
  // The warp has ended; once every warp of the CTA has, its steps are no longer needed.
  if (!s.ended[warp]) {
    s.ended[warp] = true;
    warps_.remove(cta, warp);
    if (++s.ended_count == s.warps.size()) {
      if (bounds_) bounds_->held -= s.bytes;
      resident_.erase(cta);
    }
  }
  return false;
}

void CppKernelProgram::load_data(const DataStore& store) const {
  for (const Kernel::StoreArray& a : kernel_->store_arrays())
    store.read(a.base, a.values, a.bytes);
}

void CppKernelProgram::store_data(DataStore& store) const {
  for (const Kernel::StoreArray& a : kernel_->store_arrays())
    store.write(a.base, a.values, a.bytes);
}

}  // namespace numagpu::kernels
