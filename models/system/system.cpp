#include "system/system.hpp"

#include <ostream>
#include <sstream>

#include "common/health.hpp"

namespace numagpu {

namespace {
std::string indexed(const char* base, unsigned i) {
  return base + std::to_string(i);
}
}  // namespace

Socket::Socket(const sc_core::sc_module_name& name, const SystemSpec& spec, std::uint16_t id, System& sys)
    : sc_module(name) {
  const bool multi_socket = spec.sockets > 1;
  CrossbarSpec xs = spec.crossbar;
  xs.sm_ports = spec.sms_per_socket;
  xs.l2_banks = spec.l2_banks;
  xs.has_link = multi_socket;
  xbar = std::make_unique<Crossbar>("xbar", xs, id, sys.stats());

  for (unsigned i = 0; i < spec.sms_per_socket; ++i) {
    sms.push_back(std::make_unique<Sm>(indexed("sm", i).c_str(), spec.sm, id, static_cast<std::uint16_t>(i),
                                       sys.pool(), sys.placement(), sys.runtime(), sys.stats()));
    l1s.push_back(std::make_unique<Cache>(indexed("l1_", i).c_str(), spec.l1, id, sys.pool(), sys.stats()));
    sys.connect(sms.back()->out.socket, l1s.back()->in.socket, indexed("sm", i) + "_l1");
    sys.connect(l1s.back()->out.socket, xbar->in.socket, indexed("l1_", i) + "_xbar");
  }
  dram = std::make_unique<Dram>("dram", spec.dram, sys.stats());
  for (unsigned b = 0; b < spec.l2_banks; ++b) {
    l2_banks.push_back(
        std::make_unique<Cache>(indexed("l2_", b).c_str(), spec.l2, id, sys.pool(), sys.stats()));
    sys.connect(xbar->out.socket, l2_banks.back()->in.socket, indexed("xbar_l2_", b));
    sys.connect(l2_banks.back()->out.socket, dram->in.socket, indexed("l2_", b) + "_dram");
  }
  if (multi_socket) {
    link = std::make_unique<Link>("link", spec.link, sys.stats());
    // Bind order fixes port numbers: crossbar output l2_banks and input sms_per_socket are the link's.
    sys.connect(xbar->out.socket, link->in.socket, "xbar_link");
    sys.connect(link->out.socket, xbar->in.socket, "link_xbar");
  }
}

System::System(const sc_core::sc_module_name& name, const SystemSpec& spec, stats::Registry& stats,
               std::ostream& diag)
    : sc_module(name),
      spec_(spec),
      stats_(stats),
      diag_(diag),
      placement_(spec.placement, spec.page_bytes, spec.l1.line_bytes,
                 static_cast<std::uint16_t>(spec.sockets)) {
  GpuClock::set_frequency_mhz(spec.clock_mhz);
  runtime_ = std::make_unique<Runtime>("runtime", spec_.kernels, spec.sockets, spec.launch_cycles, stats);
  for (unsigned s = 0; s < spec.sockets; ++s) {
    sockets_.push_back(
        std::make_unique<Socket>(indexed("socket", s).c_str(), spec_, static_cast<std::uint16_t>(s), *this));
  }
  if (spec.sockets > 1) {
    SwitchSpec ss = spec.sw;
    ss.ports = spec.sockets;
    switch_ = std::make_unique<Switch>("switch", ss, stats);
    for (unsigned s = 0; s < spec.sockets; ++s) {
      connect(sockets_[s]->link->out.socket, switch_->in.socket, indexed("link", s) + "_switch");
    }
    for (unsigned s = 0; s < spec.sockets; ++s) {
      connect(switch_->out.socket, sockets_[s]->link->in.socket, "switch_" + indexed("link", s));
    }
  }

  std::vector<std::vector<Sm*>> sms(spec.sockets);
  for (unsigned s = 0; s < spec.sockets; ++s) {
    for (auto& sm : sockets_[s]->sms)
      sms[s].push_back(sm.get());
  }
  runtime_->attach(std::move(sms), [this] {
    std::uint64_t lines = 0;
    for (auto& socket : sockets_) {
      for (auto& l1 : socket->l1s)
        lines += l1->invalidate_all();
    }
    return lines;
  });
  runtime_->on_finish = [this] { on_workload_finished(); };

  Watchdog::Probes probes{[this] { return requests_completed(); }, [this] { return pool_.live(); }};
  watchdog_ = std::make_unique<Watchdog>("watchdog", spec.watchdog_cycles, probes, diag_);
  for (auto& socket : sockets_) {
    for (auto& sm : socket->sms)
      watchdog_->add_reporter(sm.get());
    for (auto& l1 : socket->l1s)
      watchdog_->add_reporter(l1.get());
    watchdog_->add_reporter(socket->xbar.get());
    for (auto& l2 : socket->l2_banks)
      watchdog_->add_reporter(l2.get());
    watchdog_->add_reporter(socket->dram.get());
    if (socket->link) watchdog_->add_reporter(socket->link.get());
  }
  if (switch_) watchdog_->add_reporter(switch_.get());
}

System::~System() = default;

std::uint64_t System::requests_completed() const {
  return pool_.allocated_total() - pool_.live();
}

std::uint64_t System::protocol_phases_checked() const {
  std::uint64_t n = 0;
  for (const auto& c : checkers_)
    n += c->phases_checked();
  return n;
}

void System::on_workload_finished() {
  finish_cycle_ = GpuClock::now();
  // Stop everything periodic; the simulation then ends by itself once the last write-back has drained.
  watchdog_->stop();
  for (auto& socket : sockets_) {
    socket->dram->stop_sampling();
    if (socket->link) socket->link->stop_sampling();
  }
}

void System::run() {
  runtime_->start();
  watchdog_->start();
  for (auto& socket : sockets_) {
    socket->dram->start_sampling();
    if (socket->link) socket->link->start_sampling();
  }
  if (spec_.max_cycles) {
    sc_core::sc_start(GpuClock::cycles(spec_.max_cycles));
  } else {
    sc_core::sc_start();
  }
  drained_cycle_ = GpuClock::now();
  audit();
}

void System::audit() {
  if (watchdog_->fired()) return;  // already diagnosed, with queue occupancy
  if (!runtime_->finished()) {
    if (spec_.max_cycles && GpuClock::now() >= spec_.max_cycles)
      return;  // truncated on request, not a failure
    std::ostringstream msg;
    msg << "simulation ran out of events at cycle " << GpuClock::now() << " with the workload unfinished and "
        << pool_.live() << " transaction(s) outstanding";
    RunHealth::report(RunHealth::Kind::kAudit, msg.str());
  }
  pool_.for_each_live([](const Payload& gp) {
    const NumaAttr& a = attr(gp);
    std::ostringstream msg;
    msg << "transaction " << a.id << " (" << to_string(a.op) << " 0x" << std::hex << gp.get_address()
        << std::dec << ", socket " << a.origin_socket << " sm " << a.origin_sm << " -> home " << a.home_socket
        << ", kernel " << a.kernel_id << ", issued at cycle " << a.issue_cycle
        << ") never completed; path: " << a.trail_text();
    RunHealth::report(RunHealth::Kind::kAudit, msg.str());
  });
}

}  // namespace numagpu
