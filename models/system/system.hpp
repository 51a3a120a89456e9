// The whole machine assembled from a SystemSpec: sockets (SMs, L1s, crossbar, L2 banks, DRAM, link), the
// switch, the runtime, the watchdog, and protocol checkers on every binding when enabled.
#pragma once

#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "cache/cache.hpp"
#include "cache/partition_driver.hpp"
#include "common/delivery_scheduler.hpp"
#include "common/protocol_checker.hpp"
#include "common/sim_context.hpp"
#include "common/timed_event.hpp"
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
#include "system/configuration.hpp"
#include "system/external_ports.hpp"
#include "system/host_control.hpp"
#include "system/kernel_dispatcher.hpp"
#include "system/run_summary.hpp"
#include "system/system_spec.hpp"
#include "system/workload_builder.hpp"

namespace numagpu {

namespace kernels {
struct RecordBounds;
}

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
  // Plug points (SystemSpec::external, docs/tlm-edges.md): the host's target in place of the DRAM (which is
  // then built but left unbound), and the host's initiators at the crossbar (XbarIn::kHostInitiator).
  std::unique_ptr<HostTargetPort> host_dram;
  std::vector<std::unique_ptr<HostInitiatorPort>> host_initiators;
};

class System : public sc_core::sc_module {
 public:
  System(const sc_core::sc_module_name& name, const SystemSpec& spec, stats::Registry& stats,
         std::ostream& diag);
  // For a host program (docs/embedding.md): built from a loaded configuration (write_stats() records it) or
  // from a spec made in code (Configuration(spec)); `programs`, when not empty, are the workload's kernels
  // in order instead of the configuration's (a user's KernelProgram classes). The workload is built first
  // (system/workload_builder.hpp), which throws for one that cannot run (a CTA larger than an SM holds):
  // config::ConfigError at a loaded configuration's key, else trace::TraceError or std::invalid_argument.
  System(const sc_core::sc_module_name& name, const Configuration& config, stats::Registry& stats,
         std::vector<std::unique_ptr<KernelProgram>> programs = {}, std::ostream& diag = std::cerr);
  // Runs `workload`, built beforehand (system/workload_builder.hpp) from `config`'s spec: the numagpu
  // program builds it while the configuration can still name the key of a trace that cannot run.
  System(const sc_core::sc_module_name& name, const Configuration& config, stats::Registry& stats,
         Workload workload, std::ostream& diag);
  ~System() override;

  // Runs the workload to completion (or to max_cycles, or until the watchdog fires), then audits: the
  // numagpu program's way, which calls sc_start itself. An exception that ends the simulation from inside
  // it comes out as what was thrown, not as SystemC's report of it, where the System can tell: what a
  // library kernel's or an application's CTA threw (kernels::RecordLimitExceeded past
  // checks.max_record_bytes, std::bad_alloc), an application's launch refused, and std::bad_alloc from
  // anywhere.
  void run();
  // Asked while a CTA body of a library kernel or an application is recorded (host time in which no
  // simulated time passes, so nothing scheduled in the simulation can look): when it says true, the CTA
  // ends where its recording was cut and the run stops as stop_early() makes it. The numagpu program
  // passes whether SIGINT or SIGTERM came (cli/interrupt.hpp).
  void stop_recording_when(std::function<bool()> requested);

  // A host that owns sc_start (docs/embedding.md) does not call run(): the System starts by itself at the
  // start of simulation. When the workload has finished and its last transaction has ended (or the watchdog
  // fired), the System audits itself, done() turns true and `finished()` is notified (one delta later, at
  // that time); nothing of the System is scheduled afterwards. The host's own processes and clocks keep
  // running. A System without kernels starts nothing (it is passive: its traffic comes from elsewhere) and
  // is never done().
  const sc_core::sc_event& finished() const { return finished_event_; }
  bool done() const { return done_; }
  // No protocol violation, audit error or watchdog report so far.
  bool healthy() const { return ctx_.health.ok(); }
  // Writes stats.json and stats.txt into `dir` (made if missing; each file replaced atomically), at any
  // time: once done(), with the run summary (summary.*, placement.*, *.ipc) and complete: true. Throws
  // std::runtime_error naming the file it could not write.
  void write_stats(const std::string& dir);
  // The run summary (system/run_summary.hpp), gathered once the System is done(): the first call registers
  // its statistics (summary.*, placement.*, *.ipc), later calls return the same facts. Throws
  // std::logic_error before done().
  const RunFacts& summary();
  // Where the summary's own statistics go: "" (summary.*, placement.*) when this System is the only one
  // in its registry, else its name and a dot (gpu0.summary.*), so that Systems can share a registry
  // (stats::Registry::claim_owner).
  std::string summary_prefix() const;
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

  // Plug points (SystemSpec::external, docs/tlm-edges.md), by name: the socket a host's initiator binds to
  // (HostInitiatorPort::target), and the one a host's target is bound to (HostTargetPort::initiator). Bind
  // before elaboration ends: the external ports still unbound then are one error (SC_REPORT, numagpu/port)
  // listing each with its configuration key. A name there is no such port of is an error (numagpu/port)
  // listing the valid names (common/report.hpp).
  HostInitiatorPort::TargetSocket& external_initiator(const std::string& name);
  HostTargetPort::InitiatorSocket& external_target(const std::string& name);
  // The unbound external ports, as "key: what", one per port (empty when all are bound or there are none).
  std::vector<std::string> unbound_external_ports() const;
  // The memory's data (memory.functional), or null.
  FunctionalMemory* functional_memory() { return memory_.get(); }

  // Host control (docs/embedding.md, "Host control"). A command queue: `program` runs after everything
  // launched or configured before it (at once when the System is idle, which then is no longer done()), and
  // `on_end` is called when it has ended (its CTAs executed and the kernel boundary's coherence actions
  // done) or was aborted by a reset; `launch_ended()` is notified then. With memory.functional, a kernel's
  // data is read from the store at its launch and written back at its end (KernelProgram::load_data).
  // Returns the command's number (1, 2, ...). Throws std::invalid_argument for a CTA that never fits on an
  // SM, std::logic_error while reset_n is held low.
  struct LaunchRecord {
    std::uint64_t id = 0;
    std::string kernel;
    Cycles submitted = 0, ended = 0;
    bool aborted = false;
  };
  using LaunchCallback = std::function<void(const LaunchRecord&)>;
  std::uint64_t launch(std::unique_ptr<KernelProgram> program, LaunchCallback on_end = {});
  const sc_core::sc_event& launch_ended() const { return launch_ended_event_; }
  std::size_t launches_pending() const { return commands_.size(); }
  // A library kernel (kernels/library.hpp: `kernel` as `numagpu kernels` lists it, `args` as its
  // name=value text) whose arrays named in `arrays` are the host's, at those addresses, their values in the
  // store (memory.functional): what the host wrote there is what the kernel reads, and what it stores is what
  // the host reads back after its end. Its other arrays are placed from `base` on. Throws
  // kernels::KernelError naming what is wrong.
  std::unique_ptr<KernelProgram> library_kernel(const std::string& kernel, const std::string& args,
                                                const std::map<std::string, std::uint64_t>& arrays,
                                                std::uint64_t base = std::uint64_t(1) << 40) const;
  // The memory-mapped registers (system/host_control.hpp): a TLM target socket for the host's bus, the
  // interrupt signal, the completion event; kernels the doorbell can launch are registered there.
  HostControl& control() { return *control_; }

  // Clock and reset (docs/embedding.md, "Clock and reset"). Both optional. `clock_in`, bound to the host's
  // clock, is checked once: its period must be the System's (system.clock_mhz: load the configuration with
  // clock_setting(period)) and its rising edges on the System's cycle boundaries; an sc_clock is read at
  // the end of elaboration, another clock signal measured over its first two rising edges. No process of
  // the System wakes on the clock's edges afterwards: the System stays event-driven. `reset_n` low: the
  // System stops handing out CTAs, aborts every command and kernel not finished (those resident on SMs run
  // to their end), clears its registers and drops its interrupt; doorbells and launch() are refused until it
  // goes high again, when the System is idle and takes new kernels.
  sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> clock_in{"clock_in"};
  sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND> reset_n{"reset_n"};
  // "system.clock_mhz=<MHz>" for a clock of `period` (a --set for Configuration): the whole MHz nearest
  // 1/period whose period, rounded to a picosecond, is `period` (714 ps: 1401); throws std::invalid_argument
  // when there is none (3 ns: 333 MHz runs at 3,003 ps).
  static std::string clock_setting(const sc_core::sc_time& period);
  // A run-time clock change (docs/embedding.md, "Changing the clock during the run"): from the next cycle
  // boundary the System's cycles are `mhz`'s period long (GpuClock::retime). The SMs, caches, crossbar and
  // every delay counted in cycles follow; DRAM, links and switches keep the latency and bytes per second
  // they were built with. Returns the cycle from which the new period applies; throws
  // std::invalid_argument for a frequency GpuClock refuses.
  Cycles set_clock_mhz(std::uint64_t mhz);
  bool in_reset() const { return in_reset_; }

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
  void build_fabric();
  std::unique_ptr<Link::Balancer> link_balancer(const LinkSpec& spec, const std::string& link_name);
  void kernel_boundary(std::function<void()> proceed);
  void on_workload_finished();
  void audit();
  void end_of_elaboration() override;
  void build_switch_initiators();
  void begin();      // arms the runtime, watchdog and statistics windows (once)
  void mark_done();  // host-owned: the workload finished and drained, or the watchdog fired
  void start_of_simulation() override;
  void item_ended(std::size_t item, bool aborted);  // a launch()'s command, if it was one
  void reset_changed();
  // A clock_in that is not an sc_clock: its first two rising edges, then every rising edge, to follow a
  // change of its period (follow_clock_edge).
  void measure_clock();
  void follow_clock_edge(const sc_core::sc_time& period);
  // system.clock_steps: the next step is applied at its cycle's start, then the one after it is armed.
  void arm_clock_step();
  void apply_clock_step();
  void check_clock(const sc_core::sc_time& period, const sc_core::sc_time& first_rise) const;
  bool launch_from_registers(std::unique_ptr<KernelProgram> program, std::function<void(bool)> done);

  SimContext ctx_;  // made first (its DeliveryScheduler too): every component below uses it
  SystemSpec spec_;
  std::size_t next_clock_step_ = 0;  // in spec_.clock_steps
  TimedEvent clock_step_event_{ctx_.clock};
  std::unique_ptr<FunctionalMemory> memory_;  // memory.functional
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
  std::vector<std::unique_ptr<HostInitiatorPort>> switch_initiators_;  // plug points at switch ports
  std::unique_ptr<Watchdog> watchdog_;
  std::unique_ptr<WindowSampler> windows_;
  std::vector<std::string> trace_warnings_;
  Cycles finish_cycle_ = 0;
  Cycles drained_cycle_ = 0;
  bool stopped_early_ = false;
  bool started_ = false;
  bool host_owned_ = false;  // started by the start of simulation, not by run()
  bool done_ = false;
  std::optional<RunFacts> summary_;  // registered once, by summary()
  // What the library kernels' and applications' CTA recordings answer to (checks.max_record_bytes,
  // stop_recording_when), shared by all of them.
  std::shared_ptr<kernels::RecordBounds> record_bounds_;
  std::function<bool()> stop_requested_;
  sc_core::sc_event finished_event_{"finished"};
  // launch(): the commands not ended yet, by their workload item.
  struct Command {
    LaunchRecord record;
    LaunchCallback on_end;
  };
  std::map<std::size_t, Command> commands_;
  std::uint64_t commands_launched_ = 0;
  sc_core::sc_event launch_ended_event_{"launch_ended"};
  std::unique_ptr<DataStore> store_view_;  // memory_ as the kernels' data see it
  std::unique_ptr<HostControl> control_;
  bool in_reset_ = false;
  sc_core::sc_time clock_rise_;  // measure_clock(): the last rising edge seen
  unsigned clock_rises_ = 0;
  nlohmann::json config_resolved_;  // what write_stats() records (null: a spec made in code)
  std::string config_hash_;
};

}  // namespace numagpu
