#include "copy/copy_engine.hpp"

#include "common/txn.hpp"
#include "mem/home_map.hpp"

namespace numagpu {

CopyEngine::CopyEngine(const sc_core::sc_module_name& name, SimContext& ctx, std::uint16_t socket,
                       TxnPool& pool, const HomeMap& homes, unsigned line_bytes)
    : sc_module(name),
      out("out", ctx, *this),
      clock_(ctx.clock),
      health_(ctx.health),
      socket_(socket),
      pool_(pool),
      homes_(homes),
      line_bytes_(line_bytes) {
  SC_HAS_PROCESS(CopyEngine);
  SC_METHOD(on_start_event);
  sensitive << start_event_.event();
  dont_initialize();
}

void CopyEngine::start(const Job& job, std::function<void()> done) {
  job_ = job;
  lines_ = (job.bytes + line_bytes_ - 1) / line_bytes_;
  lines_issued_ = lines_done_ = 0;
  in_flight_ = 0;
  done_ = std::move(done);
  start_event_.notify_in_ps(clock_.cycles_ps(job.startup));
}

void CopyEngine::issue() {
  while (in_flight_ < job_.outstanding && lines_issued_ < lines_) {
    const std::uint64_t offset = job_.base_offset + lines_issued_ * line_bytes_;
    Payload& gp = pool_.allocate(job_.push ? MemOp::kWrite : MemOp::kRead,
                                 homes_.address_homed_at(job_.peer, offset), line_bytes_);
    NumaAttr& a = attr(gp);
    a.origin_socket = socket_;
    a.home_socket = job_.peer;
    a.issue_cycle = clock_.now();
    ++lines_issued_;
    ++in_flight_;
    out.send(0, gp, sc_core::SC_ZERO_TIME);
  }
}

void CopyEngine::on_response(unsigned, Payload& gp) {
  if (!complete_once(gp, name(), health_)) return;
  gp.release();
  --in_flight_;
  ++lines_done_;
  if (lines_done_ == lines_) {
    if (done_) done_();
    return;
  }
  issue();
}

void CopyEngine::report_queues(std::ostream& os) const {
  if (in_flight_ == 0) return;
  os << "  " << name() << ": in flight " << in_flight_ << ", lines " << lines_done_ << "/" << lines_ << "\n";
}

}  // namespace numagpu
