// The whole machine assembled from a SystemSpec: sockets (SMs, L1s, crossbar, L2 banks, DRAM, link), the
// switch, the runtime, the watchdog, and protocol checkers on every binding when enabled.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "cache/cache.hpp"
#include "cache/partition_driver.hpp"
#include "common/delivery_scheduler.hpp"
#include "common/protocol_checker.hpp"
#include "common/sim_context.hpp"
#include "common/txn.hpp"
#include "common/watchdog.hpp"
#include "common/window_sampler.hpp"
#include "copy/copy_engine.hpp"
#include "fabric/crossbar.hpp"
#include "fabric/link.hpp"
#include "fabric/switch.hpp"
#include "mem/dram.hpp"
#include "mem/home_map.hpp"
#include "sm/sm.hpp"
#include "stats/registry.hpp"
#include "system/kernel_dispatcher.hpp"
#include "system/system_spec.hpp"

namespace numagpu {

class System;

class Socket : public sc_core::sc_module {
 public:
  Socket(const sc_core::sc_module_name& name, const SystemSpec& spec, std::uint16_t id, System& system);

  std::vector<std::unique_ptr<Sm>> sms;
  std::vector<std::unique_ptr<Cache>> l1s;
  std::unique_ptr<Crossbar> xbar;
  std::vector<std::unique_ptr<Cache>> l2_banks;
  std::unique_ptr<Dram> dram;
  std::unique_ptr<CopyEngine> copy_engine;     // only with SystemSpec::copy_engines (bench-fabric)
  std::unique_ptr<PartitionDriver> partition;  // only for the numa_aware L2 organization
};

class System : public sc_core::sc_module {
 public:
  System(const sc_core::sc_module_name& name, const SystemSpec& spec, stats::Registry& stats,
         std::ostream& diag);
  ~System() override;

  // Runs the workload to completion (or to max_cycles, or until the watchdog fires), then audits.
  void run();
  // Ends the simulation now, from inside it (an interrupted run): run() returns at once and skips the audit,
  // since work still in flight is expected rather than lost.
  void stop_early();
  bool stopped_early() const { return stopped_early_; }

  // The machine's clock, run health and component names, shared by all its components.
  SimContext& context() { return ctx_; }
  const SimContext& context() const { return ctx_; }
  const SystemSpec& spec() const { return spec_; }
  TxnPool& pool() { return pool_; }
  stats::Registry& stats() { return stats_; }
  const HomeMap& homes() const { return homes_; }
  HomeMap& homes() { return homes_; }
  const Topology& topology() const { return topology_; }
  Socket& socket(unsigned i) { return *sockets_.at(i); }
  // What decides each socket's way split (numa_aware): the C++ controller or its RTL (policy.impl).
  std::unique_ptr<PartitionDriver::Controller> partition_controller(unsigned socket);
  // The Verilated policy blocks' waveforms (rtl.waves): file name -> VCD text, complete at any time.
  const RtlWaves& rtl_waves() const { return rtl_waves_; }
  const std::vector<std::unique_ptr<Link>>& links() const { return links_; }
  // In topology order: switch k is topology node gpus + k.
  const std::vector<std::unique_ptr<Switch>>& switches() const { return switches_; }
  // Deliveries and process activations of every component so far (numagpu run --bench).
  HostActivity host_activity() const;
  // Bytes that left / entered GPU `gpu` over all its links.
  std::uint64_t fabric_bytes_out(unsigned gpu) const;
  std::uint64_t fabric_bytes_in(unsigned gpu) const;
  KernelDispatcher& dispatcher() { return *dispatcher_; }
  // Called at the end of every statistics window, after the components have sampled (the activity
  // recorder): no event of its own, so observing cannot change the simulation.
  void on_window(std::function<void()> observer) {
    windows_->add([observer = std::move(observer)](Cycles) { observer(); });
  }
  // Called when the statistics window doubles (stats.max_windows), after that window end's observers: the
  // time series have just merged their windows pairwise; observers with per-window records do the same.
  void on_window_coarsen(std::function<void()> observer) { windows_->on_coarsen(std::move(observer)); }
  Cycles window_cycles() const { return windows_->window(); }

  // What trace readers ignored or doubted while loading the workload (to show the user).
  const std::vector<std::string>& trace_warnings() const { return trace_warnings_; }
  Cycles finish_cycle() const { return finish_cycle_; }    // when the last kernel completed
  Cycles drained_cycle() const { return drained_cycle_; }  // when the last transaction (write-backs) ended
  std::uint64_t requests_completed() const;
  std::uint64_t protocol_phases_checked() const;
  std::size_t checker_count() const { return checkers_.size(); }

  // Binds initiator -> target, through a protocol checker when checks are enabled (else directly:
  // bind_direct, common/ports.hpp).
  void connect(RequestOutputs& initiator, RequestInputs& target, const std::string& hop) {
    if (!spec_.protocol_checks) {
      bind_direct(initiator, target);
      return;
    }
    checkers_.push_back(std::make_unique<ProtocolChecker>(("check_" + hop).c_str(), ctx_.health));
    initiator.socket.bind(checkers_.back()->target);
    checkers_.back()->initiator.bind(target.socket);
  }

 private:
  std::vector<std::unique_ptr<KernelSequence>> build_programs();
  void build_fabric();
  std::unique_ptr<Link::Balancer> link_balancer(const LinkSpec& spec, const std::string& link_name);
  void kernel_boundary(std::function<void()> proceed);
  void on_workload_finished();
  void audit();

  SimContext ctx_;  // made first (its DeliveryScheduler too): every component below uses it
  SystemSpec spec_;
  RtlWaves rtl_waves_;  // before the policy blocks that write into it, so it outlives them
  stats::Registry& stats_;
  std::ostream& diag_;
  TxnPool pool_;
  HomeMap homes_;
  std::vector<std::unique_ptr<ProtocolChecker>> checkers_;
  std::unique_ptr<KernelDispatcher> dispatcher_;
  std::vector<std::unique_ptr<Socket>> sockets_;
  Topology topology_;
  std::vector<std::unique_ptr<Switch>> switches_;
  std::vector<std::unique_ptr<Link>> links_;
  std::unique_ptr<Watchdog> watchdog_;
  std::unique_ptr<WindowSampler> windows_;
  std::vector<std::string> trace_warnings_;
  Cycles finish_cycle_ = 0;
  Cycles drained_cycle_ = 0;
  bool stopped_early_ = false;
};

}  // namespace numagpu
