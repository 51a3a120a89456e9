#include "cli/bench_fabric.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <sys/wait.h>

#include "cli/embedded_scripts.hpp"
#include "cli/power_outputs.hpp"
#include "cli/python_script.hpp"
#include "common/health.hpp"
#include "config/config.hpp"
#include "stats/atomic_write.hpp"
#include "system/activity_recorder.hpp"
#include "system/system.hpp"
#include "system/system_config.hpp"

namespace numagpu {

namespace {

struct Measurement {
  unsigned src, dst;
  std::uint64_t bytes;
  bool bidirectional;
  Cycles cycles;
};

// Parses "all" or "0-1,2-5" into ordered pairs; returns an error message or "".
std::string parse_pairs(const std::string& text, unsigned gpus,
                        std::vector<std::pair<unsigned, unsigned>>& pairs) {
  if (text == "all") {
    for (unsigned s = 0; s < gpus; ++s) {
      for (unsigned d = 0; d < gpus; ++d) {
        if (s != d) pairs.emplace_back(s, d);
      }
    }
    return "";
  }
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    unsigned s, d;
    char dash, extra;
    std::istringstream one(item);
    if (!(one >> s >> dash >> d) || dash != '-' || (one >> extra)) return "'" + item + "' is not SRC-DST";
    if (s >= gpus || d >= gpus) return "'" + item + "' names a GPU outside 0.." + std::to_string(gpus - 1);
    if (s == d) return "'" + item + "' is not a pair of two GPUs";
    pairs.emplace_back(s, d);
  }
  if (pairs.empty()) return "no pairs given";
  return "";
}

// Runs every measurement from one SC_THREAD, in simulated time, one after the other.
class BenchDriver : public sc_core::sc_module {
 public:
  BenchDriver(const sc_core::sc_module_name& name, System& system, const BenchFabricOptions& o,
              std::vector<std::pair<unsigned, unsigned>> pairs)
      : sc_module(name), system_(system), options_(o), pairs_(std::move(pairs)) {
    SC_HAS_PROCESS(BenchDriver);
    SC_THREAD(run);
  }
  std::vector<Measurement> results;

 private:
  Cycles transfer(unsigned src, unsigned dst, std::uint64_t bytes, bool both_ways) {
    for (const auto& link : system_.links())
      link->kernel_launch();
    unsigned running = both_ways ? 2 : 1;
    const Cycles start = system_.context().clock.now();
    auto job = [&](unsigned from, unsigned to) {
      CopyEngine::Job j;
      j.peer = static_cast<std::uint16_t>(to);
      j.bytes = bytes;
      j.push = options_.op == "write";
      j.outstanding = options_.outstanding;
      j.startup = options_.startup_cycles;
      j.base_offset = next_offset_;
      system_.socket(from).copy_engine->start(j, [&] {
        if (--running == 0) done_.notify();
      });
    };
    job(src, dst);
    if (both_ways) job(dst, src);
    next_offset_ += bytes;
    wait(done_);
    return system_.context().clock.now() - start;
  }

  void run() {
    const bool uni = options_.direction != "bi", bi = options_.direction != "uni";
    for (const auto& [src, dst] : pairs_) {
      for (unsigned k = options_.min_log2; k <= options_.max_log2; ++k) {
        const std::uint64_t bytes = std::uint64_t(1) << k;
        if (uni) results.push_back({src, dst, bytes, false, transfer(src, dst, bytes, false)});
        if (bi) results.push_back({src, dst, bytes, true, transfer(src, dst, bytes, true)});
      }
    }
    // Nothing else is scheduled: returning lets the simulation end by itself.
  }

  System& system_;
  const BenchFabricOptions& options_;
  std::vector<std::pair<unsigned, unsigned>> pairs_;
  std::uint64_t next_offset_ = 0;
  sc_core::sc_event done_;
};

double gbps(std::uint64_t bytes, Cycles cycles, std::uint64_t clock_mhz) {
  return cycles ? double(bytes) * double(clock_mhz) / double(cycles) / 1000.0 : 0.0;
}

}  // namespace

int bench_fabric_command(const BenchFabricOptions& o, std::ostream& out, std::ostream& err) {
  auto bad = [&err](const std::string& what) {
    err << "numagpu: error: " << what << "\n";
    return kExitBadInput;
  };
  if (o.min_log2 > o.max_log2 || o.max_log2 > 30)
    return bad("--min-size/--max-size: need 8 <= min <= max <= 30 (log2 bytes)");
  if (o.direction != "uni" && o.direction != "bi" && o.direction != "both")
    return bad("--direction: expected uni, bi or both; got '" + o.direction + "'");
  if (o.op != "write" && o.op != "read") return bad("--op: expected write or read; got '" + o.op + "'");
  if (o.outstanding == 0) return bad("--outstanding: must be at least 1");

  SystemSpec spec;
  std::optional<config::Config> cfg;
  try {
    cfg.emplace(load_configuration(o.base));
    spec = to_system_spec(*cfg);
  } catch (const config::ConfigError& e) {
    return bad(e.what());
  }
  if (spec.sockets < 2)
    return bad("bench-fabric needs at least 2 sockets (system.sockets is " + std::to_string(spec.sockets) +
               ")");
  std::vector<std::pair<unsigned, unsigned>> pairs;
  if (std::string why = parse_pairs(o.pairs, spec.sockets, pairs); !why.empty())
    return bad("--pairs: " + why);
  if (!make_output_dir(o.base.out_dir, err)) return kExitBadInput;
  std::error_code ec;

  // A copy benchmark places each buffer on a named GPU, as cudaMalloc on a chosen device does; the
  // runtime's placement policy (first touch by default) is for kernels and does not apply. The engines
  // compute addresses with page (or line) interleaving, so any other policy falls back to pages.
  if (spec.placement != runtime::PlacementPolicy::kLineInterleave)
    spec.placement = runtime::PlacementPolicy::kPageInterleave;
  spec.kernels.clear();  // the copy engines are the only traffic
  spec.copy_engines = true;
  stats::Registry registry;
  System system("system", spec, registry, err);
  RunHealth& health = system.context().health;
  health.set_echo(true);
  BenchDriver driver("bench", system, o, pairs);
  // Totals only: without a workload nothing would stop a periodic sampler.
  ActivityRecorder recorder("activity", system, 0);
  sc_core::sc_start();
  if (!health.ok()) {
    err << "numagpu: bench-fabric failed (protocol, audit or watchdog errors above)\n";
    return kExitRunFailed;
  }

  std::ostringstream csv;
  csv << "# numagpu bench-fabric, topology " << system.topology().name << ", config hash " << cfg->hash()
      << ", op " << o.op << ", outstanding " << o.outstanding << ", startup_cycles " << o.startup_cycles
      << "\n";
  csv << "src,dst,bytes,direction,cycles,microseconds,gbps\n";
  for (const Measurement& m : driver.results) {
    const std::uint64_t moved = m.bidirectional ? 2 * m.bytes : m.bytes;
    char line[200];
    std::snprintf(line, sizeof line, "%u,%u,%llu,%s,%llu,%.3f,%.3f\n", m.src, m.dst,
                  static_cast<unsigned long long>(m.bytes), m.bidirectional ? "bi" : "uni",
                  static_cast<unsigned long long>(m.cycles), double(m.cycles) / double(spec.clock_mhz),
                  gbps(moved, m.cycles, spec.clock_mhz));
    csv << line;
  }
  const std::filesystem::path dir(o.base.out_dir);
  const std::string csv_path = (dir / "bench_fabric.csv").string();
  try {
    write_file_atomically(csv_path, csv.str());
    write_file_atomically(
        (dir / "config.yaml").string(),
        "# numagpu bench-fabric resolved configuration, hash " + cfg->hash() + "\n" + cfg->dump_yaml());
    write_power_outputs(finish_activity(recorder, *cfg), *cfg,
                        [&dir](const std::string& name, std::string_view contents) {
                          write_file_atomically((dir / name).string(), contents);
                        });
  } catch (const std::exception& e) {
    return bad(e.what());
  }

  if (!o.base.quiet) {
    out << "numagpu bench-fabric: topology " << system.topology().name << ", " << o.op << " copies, "
        << o.outstanding << " outstanding, start-up " << o.startup_cycles << " cycles\n";
    out << "  pair       bytes      uni GB/s   uni us      bi GB/s    bi us\n";
    for (std::size_t i = 0; i < driver.results.size(); ++i) {
      const Measurement& m = driver.results[i];
      if (m.bidirectional && o.direction == "both") continue;  // printed with its uni row
      const Measurement* b = nullptr;
      if (o.direction == "both" && i + 1 < driver.results.size()) b = &driver.results[i + 1];
      char line[200];
      if (o.direction == "bi") {
        std::snprintf(line, sizeof line, "  %2u->%-2u  %10llu  %10s  %8s  %10.2f  %8.3f\n", m.src, m.dst,
                      static_cast<unsigned long long>(m.bytes), "-", "-",
                      gbps(2 * m.bytes, m.cycles, spec.clock_mhz), double(m.cycles) / double(spec.clock_mhz));
      } else {
        std::snprintf(line, sizeof line, "  %2u->%-2u  %10llu  %10.2f  %8.3f", m.src, m.dst,
                      static_cast<unsigned long long>(m.bytes), gbps(m.bytes, m.cycles, spec.clock_mhz),
                      double(m.cycles) / double(spec.clock_mhz));
        out << line;
        if (b) {
          std::snprintf(line, sizeof line, "  %10.2f  %8.3f\n", gbps(2 * b->bytes, b->cycles, spec.clock_mhz),
                        double(b->cycles) / double(spec.clock_mhz));
        } else {
          std::snprintf(line, sizeof line, "\n");
        }
      }
      out << line;
    }
    out << "outputs     " << csv_path << ", config.yaml, activity.json, power.json"
        << (o.plot ? ", bench_fabric_curves.png, bench_fabric_heatmap.png" : "") << "\n";
  }

  if (o.plot) {
    const ScriptResult r = run_python_script(embedded::kPlotFabric, {csv_path, dir.string()});
    if (r.exit_code != 0) {
      err << "numagpu: error: --plot: " << script_failure(r, "plot_fabric.py") << "\n";
      return kExitRunFailed;
    }
    err << r.error_text;
  }
  return kExitOk;
}

}  // namespace numagpu
