#include "system/system.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <memory>
#include <new>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "common/report.hpp"
#include "kernels/application.hpp"
#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"
#include "runtime/hcoda.hpp"
#include "stats/atomic_write.hpp"
#include "stats/document.hpp"
#include "system/derived_params.hpp"
#include "system/run_summary.hpp"
#include "trace/trace.hpp"
#ifdef NUMAGPU_HAVE_RTL_LOOP
#include "rtl_loop/rtl_builds.hpp"
#endif

namespace numagpu {

namespace {
std::string indexed(const char* base, unsigned i) {
  return base + std::to_string(i);
}

#ifdef NUMAGPU_HAVE_RTL_LOOP
// The configuration check (policy.impl: rtl) admits only parameters some RTL build has.
template <class Impl>
std::unique_ptr<Impl> rtl_or_throw(std::unique_ptr<Impl> impl) {
  if (!impl) throw std::logic_error("policy.impl: rtl with parameters no RTL build has (unchecked spec)");
  return impl;
}
#endif

// The clock's period must be a whole number of ticks of the SystemC time resolution the host chose
// (common/time.hpp): refused here, at elaboration, by the key's name.
std::uint64_t clock_at_this_resolution(std::uint64_t mhz) {
  const std::string error = GpuClock::period_error(mhz);
  if (!error.empty()) report::fail(report::kConfig, "system.clock_mhz: " + error);
  return mhz;
}

// The same for each run-time step (system.clock_steps), before anything is built.
const SystemSpec& clock_steps_at_this_resolution(const SystemSpec& spec) {
  for (std::size_t k = 0; k < spec.clock_steps.size(); ++k) {
    const std::string error = GpuClock::period_error(spec.clock_steps[k].mhz);
    if (!error.empty())
      report::fail(report::kConfig, "system.clock_steps." + std::to_string(k) + ".mhz: " + error);
  }
  return spec;
}

// When cycle `c` starts with the configuration's clock and its steps (system.clock_steps).
std::uint64_t planned_cycle_start_ps(const SystemSpec& spec, Cycles c) {
  std::uint64_t ps = 0, mhz = spec.clock_mhz;
  Cycles at = 0;
  for (const ClockStep& step : spec.clock_steps) {
    if (step.cycle >= c) break;
    ps += (step.cycle - at) * period_ps_of_mhz(mhz);
    at = step.cycle;
    mhz = step.mhz;
  }
  return ps + (c - at) * period_ps_of_mhz(mhz);
}

// Banks are a power of two (checked by the configuration): log2 of their number.
unsigned bank_index_bits(unsigned banks) {
  unsigned bits = 0;
  while ((1u << bits) < banks)
    ++bits;
  return bits;
}
}  // namespace

Socket::Socket(const sc_core::sc_module_name& name, const SystemSpec& spec, std::uint16_t id, System& sys)
    : sc_module(name) {
  const MachineFacts& facts = spec.facts;
  const CrossbarPorts ports = crossbar_ports(spec, sys.topology(), id);
  const bool has_links = ports.links() > 0;
  SimContext& ctx = sys.context();
  xbar = std::make_unique<Crossbar>("xbar", ctx, spec.crossbar, ports, facts, id, sys.stats());

  for (unsigned i = 0; i < spec.sms_per_socket; ++i) {
    sms.push_back(std::make_unique<Sm>(indexed("sm", i).c_str(), ctx, spec.sm, facts, id,
                                       static_cast<std::uint16_t>(i), sys.pool(), sys.homes(),
                                       sys.dispatcher(), sys.stats()));
    l1s.push_back(
        std::make_unique<Cache>(indexed("l1_", i).c_str(), ctx, spec.l1, facts, id, sys.pool(), sys.stats()));
    sys.connect(sms.back()->out, l1s.back()->in, indexed("sm", i) + "_l1");
    sys.connect(l1s.back()->out, xbar->input(XbarIn::kSm, i), indexed("l1_", i) + "_xbar");
  }
  if (spec.copy_engines) {
    copy_engine =
        std::make_unique<CopyEngine>("copy_engine", ctx, id, sys.pool(), sys.homes(), facts.line_bytes);
    sys.connect(copy_engine->out, xbar->input(XbarIn::kCopyEngine, 0), "copy_engine_xbar");
  }
  // Requests from the host's initiators are an SM's (network 0, the local L2 first when it is GPU-side).
  for (const ExternalPortSpec& e : spec.external) {
    if (e.kind != ExternalPortSpec::Kind::kXbarInitiator || e.index != id) continue;
    const auto slot = static_cast<unsigned>(host_initiators.size());
    const auto index = static_cast<std::uint16_t>(spec.sms_per_socket + slot);
    host_initiators.push_back(std::make_unique<HostInitiatorPort>(
        e.name.c_str(), ctx, sys.pool(), sys.homes(), id, index, sys.stats(), e.key));
    sys.connect(host_initiators.back()->out, xbar->input(XbarIn::kHostInitiator, slot), e.name + "_xbar");
  }
  dram = std::make_unique<Dram>("dram", ctx, spec.dram, facts, sys.stats());
  for (const ExternalPortSpec& e : spec.external) {
    if (e.kind == ExternalPortSpec::Kind::kDramTarget && e.index == id)
      host_dram = std::make_unique<HostTargetPort>(e.name.c_str(), ctx, spec.dram.queue_depth, sys.stats(),
                                                   e.key, spec.protocol_checks);
  }
  RequestInputs& memory_in = host_dram ? host_dram->in : dram->in;
  const unsigned bank_bits = bank_index_bits(spec.l2_banks);
  for (unsigned b = 0; b < spec.l2_banks; ++b) {
    l2_banks.push_back(std::make_unique<Cache>(indexed("l2_", b).c_str(), ctx, spec.l2, facts, id, sys.pool(),
                                               sys.stats(), CacheBank{bank_bits, b}, &sys.homes()));
    sys.connect(xbar->output(XbarOut::kBankNet0, b), l2_banks.back()->in, indexed("xbar_l2_", b));
    sys.connect(l2_banks.back()->out, memory_in, indexed("l2_", b) + "_dram");
    // A GPU-side bank's second output takes remote misses and write-backs into the crossbar.
    if (spec.l2.gpu_side)
      sys.connect(l2_banks.back()->out, xbar->input(XbarIn::kL2Miss, b), indexed("l2_", b) + "_xbar");
  }
  // Each bank's second input binding: request network 1, for requests arriving from the fabric (a socket
  // without links has none).
  for (unsigned b = 0; b < spec.l2_banks && has_links; ++b)
    sys.connect(xbar->output(XbarOut::kBankNet1, b), l2_banks[b]->in, indexed("xbar_l2_", b) + "_net1");
  if (spec.l2_numa_aware) {
    std::vector<Cache*> banks;
    for (auto& bank : l2_banks)
      banks.push_back(bank.get());
    dram->keep_busy_history();
    // The controller counts up to 2^ReqW - 1 remote reads per cycle (ReqW = 2 in the RTL as built).
    std::vector<Cache*> l1_caches;  // none: the L1s stay unpartitioned (l2.partition_l1: false)
    if (spec.partition.l1) {
      for (auto& l1 : l1s)
        l1_caches.push_back(l1.get());
    }
    partition = std::make_unique<PartitionDriver>(
        "partition", ctx, sys.partition_controller(id), spec.l2.ways, 3, *dram, std::move(banks),
        std::move(l1_caches), spec.l1.ways, facts.sample_cycles, sys.stats());
    xbar->on_remote_read = [p = partition.get()] { p->read_request_sent(); };
    if (spec.step_idle_windows) partition->step_every_idle_cycle();
  }
}

System::System(const sc_core::sc_module_name& name, const SystemSpec& spec, stats::Registry& stats,
               std::ostream& diag)
    : System(name, Configuration(spec), stats, build_workload(spec), diag) {}

System::System(const sc_core::sc_module_name& name, const Configuration& config, stats::Registry& stats,
               std::vector<std::unique_ptr<KernelProgram>> programs, std::ostream& diag)
    : System(name, config, stats,
             programs.empty() ? build_workload(config.spec(), config.loaded_config())
                              : build_workload(std::move(programs), config.spec()),
             diag) {}

System::System(const sc_core::sc_module_name& name, const Configuration& config, stats::Registry& stats,
               Workload workload, std::ostream& diag)
    : sc_module(name),
      ctx_(clock_at_this_resolution(config.spec().clock_mhz)),
      spec_(clock_steps_at_this_resolution(config.spec())),
      rtl_waves_(spec_.rtl_waves, ctx_.clock.period_ps()),
      stats_(stats),
      diag_(diag),
      homes_(static_cast<std::uint16_t>(spec_.sockets),
             runtime::PlacementParams{spec_.placement, spec_.page_bytes, spec_.facts.line_bytes,
                                      spec_.migration_cycles},
             spec_.allocations),
      topology_(system_topology(spec_)),
      config_resolved_(config.resolved()),
      config_hash_(config.hash()) {
  const SystemSpec& spec = spec_;
  try {
    stats_.claim_owner(this->name());
  } catch (const std::logic_error& e) {
    report::fail(report::kStats, e.what());
  }
  topology_.compute_routes();
  if (spec.functional_memory) memory_ = std::make_unique<FunctionalMemory>();
  ctx_.edge = EdgeFacts{memory_.get(), spec.facts.line_bytes, spec.address_bits, spec.facts.sectored};
  record_bounds_ = std::move(workload.record_bounds);
  record_bounds_->stop_requested = [this] {
    if (!stopped_early_ && !(stop_requested_ && stop_requested_())) return false;
    if (!stopped_early_) stop_early();
    return true;
  };
  trace_warnings_ = std::move(workload.trace_warnings);
  // The SystemC name stays "runtime": it plays the GPU runtime's part, and its statistics keep their names.
  dispatcher_ = std::make_unique<KernelDispatcher>(
      "runtime", ctx_, std::move(workload.items),
      runtime::Machine{spec.sockets / spec.chiplets_per_gpu, spec.chiplets_per_gpu}, spec.cta,
      spec.launch_cycles, spec.kernel_overhead_cycles, stats);
  for (unsigned s = 0; s < spec.sockets; ++s) {
    sockets_.push_back(
        std::make_unique<Socket>(indexed("socket", s).c_str(), spec_, static_cast<std::uint16_t>(s), *this));
  }
  build_fabric();
  build_switch_initiators();

  std::vector<std::vector<Sm*>> sms(spec.sockets);
  for (unsigned s = 0; s < spec.sockets; ++s) {
    for (auto& sm : sockets_[s]->sms)
      sms[s].push_back(sm.get());
  }
  dispatcher_->attach(std::move(sms), [this] {
    std::uint64_t lines = 0;
    for (auto& socket : sockets_) {
      for (auto& l1 : socket->l1s)
        lines += l1->invalidate_all();
    }
    return lines;
  });
  if (!spec_.sm.carveout_bytes.empty()) {
    dispatcher_->shared_carveout = [this](const KernelProgram& k) {
      const std::uint64_t carveout =
          spec_.sm.carveout_for({k.warps_per_cta(), k.registers_per_thread(), k.shared_bytes_per_cta()});
      const std::uint64_t way_bytes = spec_.l1.size_bytes / spec_.l1.ways;  // whole ways (derive_spec)
      const auto ways = static_cast<unsigned>(spec_.l1.ways - carveout / way_bytes);
      // The L1s are already invalid (sm_idle invalidated them at the last kernel's end; at the first
      // launch they are empty), so this drops no line.
      for (auto& socket : sockets_) {
        for (auto& l1 : socket->l1s)
          l1->set_usable_ways(ways);
      }
      return carveout;
    };
  }
  if (spec_.kernel_policy != SystemSpec::KernelPolicy::kFixed || spec_.lasp_placement || spec_.crb) {
    // LADM's per-kernel decisions at each launch (runtime/lasp.hpp), from the index terms the kernel states:
    // the CTA schedule (lasp, hcoda), the placement of arrays no earlier kernel placed (memory.placement
    // lasp) and the L2s' remote insertion (runtime.crb), whose choices are counted per launch.
    std::array<stats::Counter*, 2> crb_launches{};  // [RemoteInsert]: RTWICE, RONCE
    if (spec_.crb) {
      const std::string base = std::string(this->name()) + ".runtime.crb_";
      crb_launches = {
          &stats_.counter(base + "twice_launches", "kernels",
                          "Kernel launches run with remote requests inserted at the home L2 too "
                          "(CRB's RTWICE: the kernel's largest stated array is not intra-thread)"),
          &stats_.counter(base + "once_launches", "kernels",
                          "Kernel launches run with remote requests not inserted at the home L2 "
                          "(CRB's RONCE: the kernel's largest stated array is intra-thread)")};
    }
    dispatcher_->schedule_for = [this, crb_launches](const KernelProgram& k) {
      const runtime::KernelShape shape{
          k.grid(), runtime::Machine{spec_.sockets / spec_.chiplets_per_gpu, spec_.chiplets_per_gpu},
          spec_.page_bytes};
      const std::vector<runtime::Allocation>& allocations = homes_.policy().allocations();
      runtime::KernelDecision d = runtime::decide_kernel(k.accesses(), allocations, shape);
      d.schedule.chiplet_batch = spec_.cta.chiplet_batch;  // runtime.chiplet_batch, for hierarchical
      if (spec_.lasp_placement) {
        for (std::size_t i = 0; i < d.arrays.size(); ++i)
          homes_.place_once(d.allocations[i]->base, d.arrays[i].placement, d.arrays[i].stride_bytes);
      }
      if (spec_.crb) {
        crb_launches[d.remote_insert == runtime::RemoteInsert::kOnce]->add();
        for (auto& socket : sockets_) {
          for (auto& l2 : socket->l2_banks)
            l2->set_insert_remote_requests(d.remote_insert == runtime::RemoteInsert::kTwice);
        }
      }
      switch (spec_.kernel_policy) {
        case SystemSpec::KernelPolicy::kLasp:
          return d.schedule;
        case SystemSpec::KernelPolicy::kHcoda:
          // With H-CODA's page interleaving, an array whose datablock spans pages interleaves in whole
          // datablocks (runtime/hcoda.hpp), placed at the first launch that states it, as LASP's.
          if (!spec_.lasp_placement && spec_.placement == runtime::PlacementPolicy::kPageInterleave) {
            for (const runtime::HcodaPlacement& p :
                 runtime::hcoda_placement(k.accesses(), allocations, shape))
              homes_.place_once(p.base, p.policy, p.stride_bytes);
          }
          return runtime::hcoda_schedule(k.accesses(), allocations, shape);
        case SystemSpec::KernelPolicy::kFixed:
          break;
      }
      return spec_.cta;
    };
  }
  if (memory_) {
    store_view_ = std::make_unique<FunctionalStoreView>(*memory_);
    dispatcher_->on_kernel_start = [this](const KernelProgram& k) { k.load_data(*store_view_); };
    dispatcher_->on_kernel_end = [this](const KernelProgram& k) { k.store_data(*store_view_); };
  }
  dispatcher_->on_item_end = [this](std::size_t item, bool aborted) { item_ended(item, aborted); };
  control_ = std::make_unique<HostControl>(
      "control",
      [this](std::unique_ptr<KernelProgram> program, std::function<void(bool)> done) {
        return launch_from_registers(std::move(program), std::move(done));
      },
      ctx_.clock.cycles(1));
  SC_HAS_PROCESS(System);
  // Each runs once at the start and then only when needed: the reset on its changes when it is bound, the
  // clock only when it is a signal to measure (an sc_clock is read at once).
  SC_METHOD(reset_changed);
  SC_METHOD(measure_clock);
  SC_METHOD(apply_clock_step);
  sensitive << clock_step_event_.event();
  dont_initialize();
  dispatcher_->on_finish = [this] { on_workload_finished(); };
  dispatcher_->on_boundary = [this](std::function<void()> proceed) { kernel_boundary(std::move(proceed)); };
  dispatcher_->on_launch = [this] {
    for (auto& link : links_)
      link->kernel_launch();
    for (auto& socket : sockets_) {
      if (socket->partition) socket->partition->kernel_launch();
    }
  };

  // Statistics windows: every DRAM, link and partition driver samples at the same window ends, in this order.
  windows_ = std::make_unique<WindowSampler>("windows", ctx_, spec.facts.sample_cycles, spec.max_windows);
  for (auto& socket : sockets_)
    windows_->add([d = socket->dram.get()](Cycles window) { d->sample_window(window); });
  for (auto& link : links_)
    windows_->add([l = link.get()](Cycles window) { l->sample_window(window); });
  for (auto& socket : sockets_) {
    if (socket->partition) windows_->add([p = socket->partition.get()](Cycles) { p->sample_window(); });
  }
  windows_->on_coarsen([this] { stats_.coarsen_series(); });

  Watchdog::Probes probes{[this] { return requests_completed(); }, [this] { return pool_.live(); }};
  watchdog_ = std::make_unique<Watchdog>("watchdog", ctx_, spec.watchdog_cycles, probes, diag_);
  // Shared resources first (where a stuck system usually shows), then the per-SM queues.
  for (auto& socket : sockets_) {
    watchdog_->add_reporter(socket->dram.get());
    for (auto& l2 : socket->l2_banks)
      watchdog_->add_reporter(l2.get());
    watchdog_->add_reporter(socket->xbar.get());
    if (socket->host_dram) watchdog_->add_reporter(socket->host_dram.get());
    for (auto& host : socket->host_initiators)
      watchdog_->add_reporter(host.get());
  }
  for (auto& host : switch_initiators_)
    watchdog_->add_reporter(host.get());
  for (auto& sw : switches_)
    watchdog_->add_reporter(sw.get());
  for (auto& link : links_)
    watchdog_->add_reporter(link.get());
  for (auto& socket : sockets_) {
    if (socket->copy_engine) watchdog_->add_reporter(socket->copy_engine.get());
    for (auto& l1 : socket->l1s)
      watchdog_->add_reporter(l1.get());
    for (auto& sm : socket->sms)
      watchdog_->add_reporter(sm.get());
  }
}

System::~System() {
  pool_.on_empty = nullptr;  // payloads released while the components go are no news to anyone
}

std::unique_ptr<PartitionDriver::Controller> System::partition_controller(unsigned socket) {
#ifdef NUMAGPU_HAVE_RTL_LOOP
  if (spec_.rtl_policies)
    return rtl_or_throw(make_rtl<policy::PartitionController>(
        partition_params(spec_, topology_, socket), &rtl_waves_, indexed("socket", socket) + "_partition"));
#endif
  return std::make_unique<policy::ReferenceImpl<policy::PartitionController>>(
      partition_params(spec_, topology_, socket));
}

std::unique_ptr<Link::Balancer> System::link_balancer(const LinkSpec& spec, const std::string& link_name) {
  if (spec_.link_mode != SystemSpec::LinkMode::kDynamic) return nullptr;  // static: half the lanes each way
#ifdef NUMAGPU_HAVE_RTL_LOOP
  if (spec_.rtl_policies)
    return rtl_or_throw(make_rtl<policy::LinkBalancer>(balancer_params(spec_, spec), &rtl_waves_, link_name));
#else
  (void)link_name;
#endif
  return std::make_unique<policy::ReferenceImpl<policy::LinkBalancer>>(balancer_params(spec_, spec));
}

// Switches, then links in topology order. Each link binds side a, then side b; a node's link ports are
// numbered in the same order (a crossbar's link roles, XbarIn/XbarOut::kLink; a switch's first ports),
// which is what the route tables use (Topology::link_slot).
void System::build_fabric() {
  const Topology& t = topology_;
  for (unsigned s = 0; s < t.switches; ++s) {
    SwitchSpec ss = spec_.sw;
    ss.ports = static_cast<unsigned>(t.links_of(t.gpus + s).size());
    switches_.push_back(std::make_unique<Switch>(indexed("switch", s).c_str(), ctx_, ss, stats_));
  }
  for (unsigned l = 0; l < t.links.size(); ++l) {
    const TopologyLink& tl = t.links[l];
    LinkSpec ls = tl.spec;
    const std::string a = t.node_name(tl.a), b = t.node_name(tl.b);
    ls.dir_names[0] = "to_" + b;
    ls.dir_names[1] = "to_" + a;
    const std::string name = "link_" + a + "_" + b;
    links_.push_back(
        std::make_unique<Link>(name.c_str(), ctx_, ls, spec_.facts, link_balancer(ls, name), stats_));
    if (spec_.step_idle_windows) links_.back()->step_every_idle_cycle();
    Link& link = *links_.back();
    for (unsigned node : {tl.a, tl.b}) {
      const std::string hop = name + "_" + t.node_name(node);
      if (node < t.gpus) {
        Crossbar& x = *sockets_[node]->xbar;
        const unsigned slot = t.link_slot(node, l);
        connect(x.output(XbarOut::kLink, slot), link.in, "xbar_" + hop);
        connect(link.out, x.input(XbarIn::kLink, slot), hop + "_xbar");
      } else {
        Switch& sw = *switches_[node - t.gpus];
        connect(sw.out, link.in, "switch_" + hop);
        connect(link.out, sw.in, hop + "_switch");
      }
    }
  }
  // Route tables: for each node and destination GPU, the slot of the next link among the node's links.
  for (unsigned node = 0; node < t.nodes(); ++node) {
    std::vector<int> port_for_gpu(t.gpus, -1);
    for (unsigned dest = 0; dest < t.gpus; ++dest) {
      const int l = t.next_link(node, dest);
      if (l >= 0) port_for_gpu[dest] = int(t.link_slot(node, unsigned(l)));
    }
    if (node < t.gpus) {
      sockets_[node]->xbar->set_routes(port_for_gpu);
    } else {
      switches_[node - t.gpus]->set_routes(port_for_gpu);
    }
  }
}

// The host's initiators at switch ports take the switch's inputs after its links'.
void System::build_switch_initiators() {
  for (const ExternalPortSpec& e : spec_.external) {
    if (e.kind != ExternalPortSpec::Kind::kSwitchInitiator) continue;
    Switch& sw = *switches_.at(e.index);
    const auto index = static_cast<std::uint16_t>(switch_initiators_.size());
    switch_initiators_.push_back(std::make_unique<HostInitiatorPort>(
        e.name.c_str(), ctx_, pool_, homes_, HostInitiatorPort::kNoSocket, index, stats_, e.key));
    connect(switch_initiators_.back()->out, sw.in, e.name + "_" + sw.basename());
  }
}

namespace {
// "no external initiator port named 'x' in system (its initiator ports: cpu, nic)", for a wrong name.
[[noreturn]] void no_plug_point(const char* kind, const std::string& name, const std::string& system,
                                const std::vector<std::string>& valid) {
  std::string list;
  for (const std::string& v : valid)
    list += (list.empty() ? "" : ", ") + v;
  report::fail(report::kPort,
               "no external " + std::string(kind) + " port named '" + name + "' in " + system +
                   (valid.empty() ? " (it has none; SystemSpec::external, configuration key external)"
                                  : " (its " + std::string(kind) + " ports: " + list + ")"));
}
}  // namespace

HostInitiatorPort::TargetSocket& System::external_initiator(const std::string& name) {
  std::vector<std::string> valid;
  for (auto& socket : sockets_) {
    for (auto& host : socket->host_initiators) {
      if (host->basename() == name) return host->target;
      valid.push_back(host->basename());
    }
  }
  for (auto& host : switch_initiators_) {
    if (host->basename() == name) return host->target;
    valid.push_back(host->basename());
  }
  no_plug_point("initiator", name, this->name(), valid);
}

HostTargetPort::InitiatorSocket& System::external_target(const std::string& name) {
  std::vector<std::string> valid;
  for (auto& socket : sockets_) {
    if (!socket->host_dram) continue;
    if (socket->host_dram->basename() == name) return socket->host_dram->initiator;
    valid.push_back(socket->host_dram->basename());
  }
  no_plug_point("target", name, this->name(), valid);
}

std::vector<std::string> System::unbound_external_ports() const {
  std::vector<std::string> unbound;
  auto what = [](const std::string& key, const std::string& port, const char* role) {
    return (key.empty() ? std::string("external port") : key) + ": " + port + " is not bound (" + role +
           "; a host platform binds it before elaboration ends, docs/tlm-edges.md)";
  };
  for (const auto& socket : sockets_) {
    if (socket->host_dram && !socket->host_dram->bound())
      unbound.push_back(what(socket->host_dram->config_key(), socket->host_dram->name(),
                             "an initiator socket for the host's target"));
    for (const auto& host : socket->host_initiators) {
      if (!host->bound())
        unbound.push_back(what(host->config_key(), host->name(), "a target socket for the host's initiator"));
    }
  }
  for (const auto& host : switch_initiators_) {
    if (!host->bound())
      unbound.push_back(what(host->config_key(), host->name(), "a target socket for the host's initiator"));
  }
  return unbound;
}

// Bindings are complete now: an external port nobody bound is the host's mistake, each named by its key.
void System::end_of_elaboration() {
  const std::vector<std::string> unbound = unbound_external_ports();
  if (unbound.empty()) return;
  std::string message = unbound.size() == 1
                            ? unbound.front()  // "external.N: <port> is not bound (...)"
                            : std::to_string(unbound.size()) + " external ports are not bound:";
  for (std::size_t i = 0; unbound.size() > 1 && i < unbound.size(); ++i)
    message += "\n  " + unbound[i];
  report::fail(report::kPort, message);
}

// Host control (docs/embedding.md, "Host control").

std::uint64_t System::launch(std::unique_ptr<KernelProgram> program, LaunchCallback on_end) {
  if (!program) throw std::invalid_argument(std::string(name()) + ": launch() of a null KernelProgram");
  if (in_reset_) throw std::logic_error(std::string(name()) + ": launch() while reset_n is held low");
  const std::string why = spec_.sm.misfit(
      {program->warps_per_cta(), program->registers_per_thread(), program->shared_bytes_per_cta()});
  if (!why.empty()) throw std::invalid_argument("kernel '" + program->name() + "': " + why);
  if (auto* cpp = dynamic_cast<kernels::CppKernelProgram*>(program.get())) cpp->bound_by(record_bounds_);
  const bool was_idle = dispatcher_->started() && dispatcher_->finished();
  Command command;
  command.record.id = ++commands_launched_;
  command.record.kernel = program->name();
  command.record.submitted = ctx_.clock.now();
  command.on_end = std::move(on_end);
  const std::size_t item = dispatcher_->append(std::make_unique<SingleKernel>(std::move(program)));
  commands_.emplace(item, std::move(command));
  if (sc_core::sc_is_running()) {
    if (!started_) {  // a passive System until now: it starts with this kernel
      host_owned_ = true;
      begin();
    } else if (was_idle) {  // the periodic activities stopped when the last kernel ended: they go on
      done_ = false;
      watchdog_->start();
      windows_->start();
    }
  }
  return commands_launched_;
}

void System::item_ended(std::size_t item, bool aborted) {
  const auto it = commands_.find(item);
  if (it == commands_.end()) return;  // one of the configuration's kernels
  Command command = std::move(it->second);
  commands_.erase(it);
  command.record.ended = ctx_.clock.now();
  command.record.aborted = aborted;
  launch_ended_event_.notify(sc_core::SC_ZERO_TIME);
  if (command.on_end) command.on_end(command.record);
}

bool System::launch_from_registers(std::unique_ptr<KernelProgram> program, std::function<void(bool)> done) {
  if (in_reset_) return false;
  try {
    launch(std::move(program), [done = std::move(done)](const LaunchRecord& r) { done(r.aborted); });
  } catch (const std::exception&) {
    return false;  // a CTA that never fits: the doorbell is refused (LAST = 3)
  }
  return true;
}

std::unique_ptr<KernelProgram> System::library_kernel(const std::string& kernel, const std::string& args,
                                                      const std::map<std::string, std::uint64_t>& arrays,
                                                      std::uint64_t base) const {
  kernels::Bindings bindings;
  for (const auto& [array, address] : arrays) {
    kernels::BoundArray bound;
    bound.base = address;
    bound.in_store = true;
    bindings[array] = bound;
  }
  auto made = kernels::make_kernel(kernel, args, base, bindings);
  for (const auto& [array, address] : arrays) {
    const auto& used = made->store_arrays();
    if (std::none_of(used.begin(), used.end(), [&](const auto& a) { return a.name == array; }))
      throw kernels::KernelError(kernel + " has no array '" + array + "' (given at address " +
                                 std::to_string(address) + ")");
  }
  auto program = std::make_unique<kernels::CppKernelProgram>(kernel, std::move(made), spec_.facts.line_bytes,
                                                             sm_latencies(spec_.sm));
  program->bound_by(record_bounds_);
  return program;
}

// Clock and reset (docs/embedding.md, "Clock and reset").

std::string System::clock_setting(const sc_core::sc_time& period) {
  const double ps = period.to_seconds() * 1e12;
  const auto whole = static_cast<std::uint64_t>(ps + 0.5);
  const std::uint64_t mhz = std::abs(ps - double(whole)) > 1e-6 ? 0 : mhz_of_period_ps(whole);
  if (mhz == 0)
    throw std::invalid_argument("a clock of " + period.to_string() +
                                " is not the period of a whole number of MHz rounded to the picosecond "
                                "(system.clock_mhz's period is 1/f rounded to a whole picosecond)");
  return "system.clock_mhz=" + std::to_string(mhz);
}

Cycles System::set_clock_mhz(std::uint64_t mhz) {
  const Cycles from = ctx_.clock.retime(mhz);
  windows_->follow_clock();
  return from;
}

void System::check_clock(const sc_core::sc_time& period, const sc_core::sc_time& first_rise) const {
  const sc_core::sc_time mine = ctx_.clock.cycles(1);
  std::string problem;
  if (period != mine) {
    problem = "its period is " + period.to_string() + ", the System's " + mine.to_string() +
              " (system.clock_mhz: load the configuration with System::clock_setting(period))";
  } else if (first_rise.value() % mine.value() != 0) {
    problem = "its rising edges (the first at " + first_rise.to_string() +
              ") are not on the System's cycle boundaries (multiples of " + mine.to_string() + " from 0)";
  }
  if (!problem.empty())
    SC_REPORT_ERROR("numagpu/clock_in", (std::string(name()) + ".clock_in: " + problem).c_str());
}

void System::measure_clock() {
  if (clock_in.size() == 0) return;
  if (clock_rises_ == 0) {
    if (const auto* clock = dynamic_cast<const sc_core::sc_clock*>(clock_in.get_interface())) {
      sc_core::sc_time rise = clock->start_time();
      if (!clock->posedge_first()) rise += clock->period() * (1.0 - clock->duty_cycle());
      check_clock(clock->period(), rise);
      return;  // read once: nothing of the System wakes on its edges
    }
    ++clock_rises_;
    if (clock_in->posedge()) {
      clock_rise_ = sc_core::sc_time_stamp();
      ++clock_rises_;
    }
    next_trigger(clock_in->posedge_event());
    return;
  }
  if (clock_rises_ == 1) {
    clock_rise_ = sc_core::sc_time_stamp();
    ++clock_rises_;
    next_trigger(clock_in->posedge_event());
    return;
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (clock_rises_ == 2) {
    check_clock(now - clock_rise_, clock_rise_);
    ++clock_rises_;
  } else if (now - clock_rise_ != ctx_.clock.cycles(1)) {
    // The host's generator changed its period: this edge ends the cycle in progress, the next cycles have
    // the new one (a signal can change its spacing; an sc_clock cannot, and is read once above).
    follow_clock_edge(now - clock_rise_);
  }
  clock_rise_ = now;
  next_trigger(clock_in->posedge_event());
}

void System::follow_clock_edge(const sc_core::sc_time& period) {
  const std::uint64_t ps = ctx_.clock.ps_of(period);
  const std::uint64_t mhz = mhz_of_period_ps(ps);
  const std::string error =
      mhz == 0 ? std::string("not the period of a whole number of MHz") : GpuClock::period_error(mhz);
  if (!error.empty()) {
    SC_REPORT_ERROR("numagpu/clock_in", (std::string(name()) + ".clock_in: its period changed to " +
                                         period.to_string() + ", which the System cannot follow: " + error)
                                            .c_str());
    return;
  }
  ctx_.clock.retime_at_now(mhz);
  windows_->follow_clock();
}

void System::reset_changed() {
  if (reset_n.size() == 0) return;
  next_trigger(reset_n->value_changed_event());
  const bool held = !reset_n->read();
  if (held == in_reset_) return;
  in_reset_ = held;
  control_->reset(held);
  if (held) {
    dispatcher_->abort();
  } else if (!started_ && dispatcher_->items_total() > 0) {  // held from the start: the System starts now
    host_owned_ = true;
    begin();
  }
}

std::uint64_t System::fabric_bytes_out(unsigned gpu) const {
  std::uint64_t bytes = 0;
  for (std::size_t l = 0; l < links_.size(); ++l) {
    const TopologyLink& tl = topology_.links[l];
    if (tl.a == gpu) bytes += links_[l]->bytes(0);
    if (tl.b == gpu) bytes += links_[l]->bytes(1);
  }
  return bytes;
}

std::uint64_t System::fabric_bytes_in(unsigned gpu) const {
  std::uint64_t bytes = 0;
  for (std::size_t l = 0; l < links_.size(); ++l) {
    const TopologyLink& tl = topology_.links[l];
    if (tl.a == gpu) bytes += links_[l]->bytes(1);
    if (tl.b == gpu) bytes += links_[l]->bytes(0);
  }
  return bytes;
}

std::uint64_t System::requests_completed() const {
  return pool_.allocated_total() - pool_.live();
}

std::uint64_t System::protocol_phases_checked() const {
  std::uint64_t n = 0;
  for (const auto& c : checkers_)
    n += c->phases_checked();
  return n;
}

// Software coherence of a GPU-side L2 at a kernel boundary: every bank drops its remote lines, writing dirty
// ones back to their homes; the runtime proceeds when the last write-back is acknowledged. The ideal
// (l2.coherence: ideal) writes back and drops nothing; none does neither.
void System::kernel_boundary(std::function<void()> proceed) {
  if (!spec_.l2.gpu_side || spec_.coherence == L2Coherence::kNone) {
    proceed();
    return;
  }
  auto pending = std::make_shared<std::size_t>(1);  // one extra count until every bank has started
  auto finish_one = [pending, proceed] {
    if (--*pending == 0) proceed();
  };
  for (auto& socket : sockets_) {
    for (auto& bank : socket->l2_banks) {
      ++*pending;
      bank->flush_remote(finish_one, spec_.coherence == L2Coherence::kSoftware);
    }
  }
  finish_one();
}

void System::on_workload_finished() {
  finish_cycle_ = ctx_.clock.now();
  // Stop everything periodic; the simulation then ends by itself once the last write-back has drained.
  watchdog_->stop();
  windows_->stop();
  for (auto& link : links_)
    link->finish();
  for (auto& socket : sockets_) {
    if (socket->partition) socket->partition->finish();
  }
  if (host_owned_ && pool_.live() == 0) mark_done();  // else when the last transaction ends (pool_.on_empty)
}

void System::begin() {
  if (started_) return;
  started_ = true;
  if (host_owned_) {
    // The host's clocks keep the simulation going: the System tells when it is done instead of running out
    // of events, and a watchdog report ends only this System, not the host's simulation.
    pool_.on_empty = [this] {
      if (!done_ && dispatcher_->finished()) mark_done();
    };
    watchdog_->on_fire = [this] {
      windows_->stop();
      for (auto& link : links_)
        link->finish();
      for (auto& socket : sockets_) {
        if (socket->partition) socket->partition->finish();
      }
      mark_done();
    };
  }
  dispatcher_->start();
  watchdog_->start();
  windows_->start();
  arm_clock_step();
}

void System::arm_clock_step() {
  if (next_clock_step_ < spec_.clock_steps.size())
    clock_step_event_.notify_at_ps(ctx_.clock.cycle_start_ps(spec_.clock_steps[next_clock_step_].cycle));
}

void System::apply_clock_step() {
  const auto resumed = clock_step_event_.resume();
  set_clock_mhz(spec_.clock_steps[next_clock_step_++].mhz);  // at the cycle's start: from this cycle
  arm_clock_step();
}

void System::start_of_simulation() {
  if (started_) return;                          // run() started it
  if (reset_n.size() > 0 && !reset_n->read()) {  // held in reset from the start: begins when released
    in_reset_ = true;
    control_->reset(true);
    return;
  }
  // A System without kernels is passive: what drives it (bench-fabric's copy engines, a host's own
  // initiators) ends the simulation, and it starts nothing periodic that would keep it going.
  if (dispatcher_->items_total() == 0) return;
  host_owned_ = true;
  begin();
}

void System::mark_done() {
  if (done_) return;
  done_ = true;  // pool_.on_empty stays set (it may be what called): it tests done_ first
  drained_cycle_ = ctx_.clock.now();
  audit();
  finished_event_.notify(sc_core::SC_ZERO_TIME);
}

void System::run() {
  begin();
  try {
    if (spec_.max_cycles) {
      sc_core::sc_start(ctx_.clock.ps_time(planned_cycle_start_ps(spec_, spec_.max_cycles)));
    } else {
      sc_core::sc_start();
    }
  } catch (const sc_core::sc_report& report) {
    // SystemC turned an exception out of a process into a report of its text (E549, "uncaught exception").
    // What a CTA or an application's launch threw was kept: that, as thrown. An allocation failure
    // elsewhere is known by its text, which is std::bad_alloc's own.
    if (record_bounds_->fault) std::rethrow_exception(std::exchange(record_bounds_->fault, nullptr));
    const std::string text = report.get_msg();
    if (text == std::bad_alloc().what() || text == std::bad_array_new_length().what()) throw std::bad_alloc();
    throw;
  }
  drained_cycle_ = ctx_.clock.now();
  audit();
  done_ = true;
}

std::string System::summary_prefix() const {
  return stats_.owners() > 1 ? std::string(name()) + "." : std::string();
}

const RunFacts& System::summary() {
  if (!done_) throw std::logic_error(std::string(name()) + ": summary() before the System is done");
  if (!summary_) summary_ = collect_facts(*this, 0.0);
  return *summary_;
}

void System::write_stats(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create directory (" + ec.message() + ")");
  nlohmann::json run_info;
  if (done_) run_info = summary().to_json();
  run_info["cycle_reached"] = ctx_.clock.now();
  const nlohmann::json document =
      stats::make_document(stats_, std::string(version()), config_resolved_, config_hash_, run_info, done_);
  write_file_atomically((std::filesystem::path(dir) / "stats.json").string(), document.dump(1) + "\n");
  write_file_atomically(
      (std::filesystem::path(dir) / "stats.txt").string(),
      "# numagpu " + std::string(version()) + " statistics" +
          (config_hash_.empty() ? std::string() : ", config hash " + config_hash_) +
          (done_ ? std::string() : " (incomplete: at cycle " + std::to_string(ctx_.clock.now()) + ")") +
          "\n" + stats_.text());
}

namespace {
void add_activity_below(const sc_core::sc_object& object, HostActivity& total) {
  if (const auto* source = dynamic_cast<const HostActivitySource*>(&object)) source->add_host_activity(total);
  for (const sc_core::sc_object* child : object.get_child_objects())
    add_activity_below(*child, total);
}
}  // namespace

HostActivity System::host_activity() const {
  HostActivity total;
  add_activity_below(*this, total);
  return total;
}

void System::stop_recording_when(std::function<bool()> requested) {
  stop_requested_ = std::move(requested);
}

void System::stop_early() {
  stopped_early_ = true;
  sc_core::sc_stop();
}

void System::audit() {
  if (watchdog_->fired()) return;  // already diagnosed, with queue occupancy
  if (stopped_early_) return;      // interrupted: work in flight is expected, not lost
  if (!dispatcher_->finished()) {
    if (spec_.max_cycles && ctx_.clock.now() >= spec_.max_cycles)
      return;  // truncated on request, not a failure
    std::ostringstream msg;
    msg << "simulation ran out of events at cycle " << ctx_.clock.now()
        << " with the workload unfinished and " << pool_.live() << " transaction(s) outstanding";
    ctx_.health.report(RunHealth::Kind::kAudit, msg.str());
  }
  pool_.for_each_live([this](const Payload& gp) {
    const NumaAttr& a = attr(gp);
    std::ostringstream msg;
    msg << "transaction " << a.id << " (" << to_string(a.op) << " 0x" << std::hex << gp.get_address()
        << std::dec << ", socket " << a.origin_socket << " sm " << a.origin_sm << " -> home " << a.home_socket
        << ", kernel " << a.kernel_id << ", issued at cycle " << a.issue_cycle
        << ") never completed; path: " << a.trail_text(ctx_.names);
    ctx_.health.report(RunHealth::Kind::kAudit, msg.str());
  });
}

}  // namespace numagpu
