#include "system/activity_recorder.hpp"

#include <iterator>
#include <stdexcept>
#include <utility>

#include "common/txn.hpp"
#include "power/energy_table.hpp"
#include "power/rtl_area.hpp"
#include "system/derived_params.hpp"
#include "system/system.hpp"

namespace numagpu {

namespace {
constexpr const char* kResidentPs = "resident_ps";  // an SM's resident cycles' time (power_model.cpp)
}  // namespace

ActivityRecorder::ActivityRecorder(const sc_core::sc_module_name& name, System& system, Cycles window_cycles)
    : sc_module(name), system_(system), window_(window_cycles) {
  build();
  for (Tracked& t : tracked_) {
    t.instance.counters.shrink_to_fit();
    t.last.assign(t.probes.size(), 0);
  }
  // Windows are the system's (one event for every sampler, system/system.hpp): the recorder only reads at
  // their ends. They stop when the workload is done, as every periodic activity does.
  if (window_) {
    if (window_ != system.window_cycles())
      throw std::logic_error("ActivityRecorder: its window must be the system's stats window");
    system.on_window([this] { sample(); });
    system.on_window_coarsen([this] { coarsen(); });
  }
  KernelDispatcher& dispatcher = system.dispatcher();
  dispatcher.on_finish = [this, previous = std::move(dispatcher.on_finish)] {
    if (previous) previous();
    stopped_ = true;
  };
}

ActivityRecorder::Tracked& ActivityRecorder::track(std::string name, const char* kind, int socket) {
  tracked_.emplace_back();
  Tracked& t = tracked_.back();
  t.instance.name = std::move(name);
  t.instance.kind = kind;
  t.instance.socket = socket;
  return t;
}

std::uint64_t ActivityRecorder::Probe::value() const {
  if (read) return read();
  std::uint64_t n = 0;
  for (const stats::Counter* c : sum)
    n += c->value();
  return n * scale;
}

void ActivityRecorder::probe(Tracked& t, const char* counter, std::function<std::uint64_t()> read) {
  t.instance.counters.emplace_back(counter);
  t.probes.push_back(Probe{{}, 1, std::move(read)});
}

void ActivityRecorder::sum(Tracked& t, const char* counter, std::vector<const stats::Counter*> counters,
                           std::uint64_t scale) {
  t.instance.counters.emplace_back(counter);
  t.probes.push_back(Probe{std::move(counters), scale, nullptr});
}

void ActivityRecorder::build() {
  const SystemSpec& spec = system_.spec();
  // Busy picoseconds become cycles of the clock the machine was built with (DRAM and links keep their own
  // time after a clock change); the end of a window is asked of the clock, which knows its epoch.
  const GpuClock* clock = &system_.context().clock;
  const std::uint64_t period = clock->period_ps();
  for (unsigned s = 0; s < spec.sockets; ++s) {
    Socket& socket = system_.socket(s);
    const int sid = static_cast<int>(s);
    for (auto& sm : socket.sms) {
      Tracked& t = track(sm->name(), "sm", sid);
      const Sm::Counters c = sm->counters();
      counter(t, "instructions", c.instructions);
      counter(t, "loads", c.loads);
      counter(t, "stores", c.stores);
      counter(t, "atomics", c.atomics);
      for (unsigned k = 0; k < kInstrClasses; ++k) {
        const std::string name = std::string("instructions_") + to_string(static_cast<InstrClass>(k));
        counter(t, name.c_str(), *c.by_class[k]);
      }
      counter(t, "thread_instructions", c.thread_instructions);
      const Sm* m = sm.get();
      probe(t, "issue_cycles", [m] { return m->issue_cycles_before_now(); });
      probe(t, "idle_cycles", [this, m] { return now_ - m->issue_cycles_before_now(); });
      probe(t, "resident_cycles", [this, m] { return m->resident_cycles_before(now_); });
      // Only kept after a clock change (finish()): the resident cycles' own time.
      probe(t, kResidentPs, [this, m] { return m->resident_ps_before(now_); });
    }
    auto cache = [&](const Cache& c, const char* kind, const CacheSpec& cs) {
      Tracked& t = track(c.name(), kind, sid);
      const Cache::Counters cc = c.counters();
      const std::vector<const stats::Counter*> hits(cc.read_hits.begin(), cc.read_hits.end());
      const std::vector<const stats::Counter*> misses(cc.read_misses.begin(), cc.read_misses.end());
      std::vector<const stats::Counter*> all = hits;
      all.insert(all.end(), misses.begin(), misses.end());
      sum(t, "reads", all);
      sum(t, "read_hits", hits);
      sum(t, "read_misses", misses);
      sum(t, "writes", {cc.writes.begin(), cc.writes.end()});
      const stats::Counter* atomics = &cc.atomics;
      // A cache performs atomics or forwards them, never both: the other count is an empty sum (0).
      const bool performed = cs.caches_atomics;
      sum(t, "atomics_performed", performed ? std::vector{atomics} : std::vector<const stats::Counter*>{});
      sum(t, "atomics_forwarded", performed ? std::vector<const stats::Counter*>{} : std::vector{atomics});
      counter(t, "fills", cc.fills);
      counter(t, "evictions", cc.evictions);
      counter(t, "writebacks", cc.writebacks);
      counter(t, "coherence_writebacks", cc.coherence_writebacks);
      counter(t, "mshr_merges", cc.mshr_merges);
      counter(t, "bank_conflicts", cc.bank_conflicts);
      // Sectored caches: the 32 B sectors of each lookup (the line counts above count requests).
      if (cc.read_sector_hits) {
        counter(t, "read_sector_hits", *cc.read_sector_hits);
        counter(t, "read_sector_misses", *cc.read_sector_misses);
        counter(t, "write_sector_hits", *cc.write_sector_hits);
        counter(t, "write_sector_misses", *cc.write_sector_misses);
      }
      t.instance.properties = {
          {"size_bytes", cs.size_bytes}, {"ways", cs.ways}, {"line_bytes", spec.facts.line_bytes}};
    };
    for (auto& l1 : socket.l1s)
      cache(*l1, "l1", spec.l1);
    for (auto& bank : socket.l2_banks)
      cache(*bank, "l2", spec.l2);

    {
      Tracked& t = track(socket.xbar->name(), "crossbar", sid);
      const Crossbar::Counters c = socket.xbar->counters();
      sum(t, "bits", {&c.bytes}, 8);
      counter(t, "requests", c.requests);
      counter(t, "requests_to_link", c.requests_to_link);
    }
    {
      const Dram* d = socket.dram.get();
      Tracked& t = track(d->name(), "dram", sid);
      const Dram::Counters c = d->counters();
      counter(t, "reads", c.reads);
      counter(t, "writes", c.writes);
      sum(t, "read_bits", {&c.read_bytes}, 8);
      sum(t, "write_bits", {&c.write_bytes}, 8);
      if (c.read_sectors) {  // sectored machines: 32 B sectors moved
        counter(t, "read_sectors", *c.read_sectors);
        counter(t, "write_sectors", *c.write_sectors);
      }
      // Busy time from the channels' busy trackers (common/busy_tracker.hpp), in cycles: a channel that
      // transferred for 2.5 cycles counts 2.5 (floored over the run, not per cycle), and idle is the rest
      // of the channels' time.
      const unsigned channels = d->channels();
      probe(t, "busy_channel_cycles",
            [this, d, clock, period] { return d->busy_ps_until(clock->cycle_start_ps(now_)) / period; });
      probe(t, "idle_channel_cycles", [this, d, clock, period, channels] {
        return now_ * channels - d->busy_ps_until(clock->cycle_start_ps(now_)) / period;
      });
      t.instance.properties = {{"channels", d->channels()}};
    }
    if (socket.partition) {
      PartitionDriver* p = socket.partition.get();
      Tracked& t = track(p->name(), "partition_controller", sid);
      probe(t, "clocked_cycles", [this] { return now_; });
      probe(t, "decisions", [p] { return p->decisions(); });
      counter(t, "way_changes", p->counters().changes);
      syncs_.push_back([p] { p->catch_up(); });
      // The controller's RTL parameters: the ones the system built it with (system/derived_params.hpp).
      const policy::PartitionController::Params pc = partition_params(spec, system_.topology(), s);
      const std::map<std::string, std::uint64_t> params = {
          {"Ways", pc.ways},
          {"SampleCycles", pc.sample_cycles},
          {"SatNum", pc.sat_num},
          {"SatDen", pc.sat_den},
          {"RespBytes", pc.resp_bytes},
          {"IngressBytesPerCycle", pc.ingress_bytes_per_cycle}};
      t.instance.properties = {{"impl", spec.rtl_policies ? "rtl" : "model"},
                               {"rtl_params", params},
                               {"area", power::policy_block_area("cache_partition_ctrl", params)}};
    }
  }

  const Topology& topo = system_.topology();
  for (std::size_t l = 0; l < system_.links().size(); ++l) {
    Link* link = system_.links()[l].get();
    const TopologyLink& tl = topo.links[l];
    Tracked& t = track(link->name(), "link", -1);
    const std::string b = link->name();
    // Side a of a topology link is the link's side 0: direction 0 goes from a to b.
    const Link::Counters c = link->counters();
    sum(t, "bits_a_to_b", {&c.dir[0].bytes}, 8);
    sum(t, "bits_b_to_a", {&c.dir[1].bytes}, 8);
    counter(t, "packets_a_to_b", c.dir[0].packets);
    counter(t, "packets_b_to_a", c.dir[1].packets);
    // Busy time of each direction's lanes from its busy tracker, in cycles (exact time, floored over the
    // run); idle is the rest of the run.
    for (int dir : {0, 1}) {
      const char* busy = dir == 0 ? "busy_cycles_a_to_b" : "busy_cycles_b_to_a";
      const char* idle = dir == 0 ? "idle_cycles_a_to_b" : "idle_cycles_b_to_a";
      probe(t, busy, [this, link, clock, period, dir] {
        return link->busy_ps_until(dir, clock->cycle_start_ps(now_)) / period;
      });
      probe(t, idle, [this, link, clock, period, dir] {
        return now_ - link->busy_ps_until(dir, clock->cycle_start_ps(now_)) / period;
      });
    }
    counter(t, "turnarounds", c.turnarounds);
    counter(t, "turnaround_cycles", c.turnaround_cycles);
    auto kind = [&](unsigned node) { return node < topo.gpus ? "gpu" : "switch"; };
    t.instance.properties = {
        {"a", topo.node_name(tl.a)},
        {"a_kind", kind(tl.a)},
        {"b", topo.node_name(tl.b)},
        {"b_kind", kind(tl.b)},
        {"lanes", tl.spec.lanes},
        {"lane_bytes_per_cycle", double(tl.spec.lane_rate_num) / double(tl.spec.lane_rate_den)}};
    syncs_.push_back([link] { link->sync(); });
    if (spec.link_mode == SystemSpec::LinkMode::kDynamic) {
      Tracked& bt = track(b + ".balancer", "link_balancer", -1);
      probe(bt, "clocked_cycles", [this] { return now_; });
      probe(bt, "decisions", [link] { return link->decisions(); });
      counter(bt, "lane_turns", c.turnarounds);
      const policy::LinkBalancer::Params lb = balancer_params(spec, tl.spec);
      const std::map<std::string, std::uint64_t> params = {{"Lanes", lb.lanes},
                                                           {"SampleCycles", lb.sample_cycles},
                                                           {"SwitchCycles", lb.switch_cycles},
                                                           {"SatNum", lb.sat_num},
                                                           {"SatDen", lb.sat_den}};
      bt.instance.properties = {{"impl", spec.rtl_policies ? "rtl" : "model"},
                                {"link", b},
                                {"rtl_params", params},
                                {"area", power::policy_block_area("link_balancer", params)}};
    }
  }
  // Switches: the bits they send on, from the links' directions that leave them.
  for (unsigned k = 0; k < topo.switches; ++k) {
    const unsigned node = topo.gpus + k;
    const Switch& sw = *system_.switches()[k];
    Tracked& t = track(sw.name(), "switch", -1);
    std::vector<const stats::Counter*> out;
    for (std::size_t l = 0; l < topo.links.size(); ++l) {
      const TopologyLink& tl = topo.links[l];
      if (tl.a != node && tl.b != node) continue;
      // Leaving the switch: direction 0 (a to b) when the switch is side a, else direction 1.
      out.push_back(&system_.links()[l]->counters().dir[tl.a == node ? 0 : 1].bytes);
    }
    sum(t, "bits", out, 8);
    counter(t, "requests", sw.counters().requests);
  }
}

void ActivityRecorder::sample() {
  if (stopped_) return;
  close_window(system_.context().clock.now());
}

void ActivityRecorder::close_window(Cycles end) {
  now_ = end;
  for (auto& sync : syncs_)
    sync();
  windows_.push_back(power::Window{window_start_, end - window_start_});
  for (Tracked& t : tracked_) {
    const std::size_t base = t.counts.size();
    t.counts.resize(base + t.probes.size());
    for (std::size_t c = 0; c < t.probes.size(); ++c) {
      const std::uint64_t v = t.probes[c].value();
      t.counts[base + c] = v - t.last[c];
      t.last[c] = v;
    }
  }
  window_start_ = end;
}

// The window doubled (stats.max_windows): windows 2k and 2k+1 become window k, their counts added. The
// sampler coarsens at an even count, so every window has a partner.
void ActivityRecorder::coarsen() {
  const std::size_t n = windows_.size() / 2;
  for (std::size_t k = 0; k < n; ++k)
    windows_[k] =
        power::Window{windows_[2 * k].start_cycle, windows_[2 * k].cycles + windows_[2 * k + 1].cycles};
  windows_.resize(n);
  for (Tracked& t : tracked_) {
    const std::size_t counters = t.probes.size();
    std::vector<std::uint64_t>& w = t.counts;
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t c = 0; c < counters; ++c)
        w[k * counters + c] = w[2 * k * counters + c] + w[(2 * k + 1) * counters + c];
    }
    w.resize(n * counters);
  }
}

power::Activity ActivityRecorder::finish() {
  const Cycles end = system_.context().clock.now();
  power::Activity a;
  a.clock_mhz = system_.spec().clock_mhz;
  a.duration_cycles = end;
  // After a clock change cycles are not all one period long: the time itself, for power (power_model.cpp).
  // So also when the period is not exactly 1/clock_mhz (common/cycles.hpp): the time is the period run's.
  if (system_.context().clock.retimed() || 1000000 % a.clock_mhz != 0)
    a.duration_ps = system_.context().clock.now_ps();
  if (system_.context().clock.retimed()) {
    for (const GpuClock::Step& s : system_.context().clock.steps())
      if (s.cycle <= end) a.clock_steps.push_back({s.cycle, s.mhz});
  }
  a.sim_cycles = system_.finish_cycle();
  a.window_cycles = window_ ? system_.window_cycles() : 0;  // the last window length, after coarsening
  a.sockets = system_.spec().sockets;
  // The lazily stepped policy blocks were brought up to date when the workload finished; stepping them
  // further now would change what the statistics report, so the last window reads them as they are.
  syncs_.clear();
  if (window_) {
    if (end > window_start_ || windows_.empty()) {
      close_window(end);
    } else {
      // The run ended on a window boundary: anything counted since belongs to the last window.
      now_ = end;
      for (Tracked& t : tracked_) {
        const std::size_t last_window = t.counts.size() - t.probes.size();
        for (std::size_t c = 0; c < t.probes.size(); ++c) {
          const std::uint64_t v = t.probes[c].value();
          t.counts[last_window + c] += v - t.last[c];
          t.last[c] = v;
        }
      }
    }
  } else {
    now_ = end;
  }
  // Times in picoseconds beside cycle counts only matter when cycles were not all one period long.
  const bool retimed = system_.context().clock.retimed();
  for (Tracked& t : tracked_) {
    const std::size_t counters = t.probes.size();
    std::vector<bool> keep(counters, true);
    if (!retimed) {
      for (std::size_t c = 0; c < counters; ++c)
        keep[c] = t.instance.counters[c] != kResidentPs;
    }
    power::Instance inst = t.instance;
    inst.counters.clear();
    inst.totals.clear();
    inst.windows.clear();
    for (std::size_t c = 0; c < counters; ++c) {
      if (!keep[c]) continue;
      inst.counters.push_back(t.instance.counters[c]);
      inst.totals.push_back(t.probes[c].value());
    }
    for (std::size_t w = 0; w < windows_.size(); ++w) {
      std::vector<std::uint64_t>& row = inst.windows.emplace_back();
      for (std::size_t c = 0; c < counters; ++c)
        if (keep[c]) row.push_back(t.counts[w * counters + c]);
    }
    a.instances.push_back(std::move(inst));
  }
  a.windows = windows_;
  return a;
}

}  // namespace numagpu
