#include "cli/correlate_counters.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "stats/atomic_write.hpp"

namespace numagpu {

namespace fs = std::filesystem;

namespace {

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, double>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_number()) {
    out[prefix] = j.get<double>();
  }
}

struct PipeWork {
  double fp32_instructions;
  double int_instructions;
  double fp64_passes;  // fp64 warp instructions and their second passes
  double tensor_instructions;
};

// The two counters of the table that AccelWattch computes per SM sub-partition (its
// gen_hw_perf_csv.py): Num_Idle_SMs = 80 x (1 - smsp__cycles_active.avg / elapsed), and Pipeline_Duty = the
// alu, fma, fp64, shared and tensor pipes' sm__pipe_*_cycles_active summed over the sub-partitions, over
// the SMs' elapsed cycles and 5. A sub-partition is a processing block (sm.processing_blocks, or one per
// issue slot); its pipe of a class has lanes / blocks lanes, so a warp instruction keeps it active 32 / that
// many cycles (GV100: 2 for the fma and alu pipes of 16 lanes, as NVIDIA gives them, 4 for fp64's 8). On the
// GV100 the fp64, fp16 and tensor pipes share one dispatch port, the "shared pipe" (NVIDIA's developer forum,
// "INT32 and FP64 can be used concurrently in the Volta architecture"): an fp64 or tensor instruction keeps
// the shared pipe active as long as its own. fp32 and int instructions are the fma and alu pipes' (which of
// the two takes an instruction does not change the sum). A class with instructions but no pipe lanes (the
// paper system sets none) leaves no Pipeline_Duty figure. Num_Idle_SMs is in the configuration's SMs (the
// table's 80 on the GV100). A run of several launches gives the ratios over its whole time, gaps between
// kernels included (every kernel of the study table is one launch).
// It reads the SM and block counts from r (set before the call): one reading of the blocks.
void add_sub_partition_counters(const nlohmann::json& config, const std::map<std::string, double>& flat,
                                double block_active_cycles, const PipeWork& work, SimulatedCounters& r) {
  const auto cycles = flat.find("summary.sim_cycles");
  if (r.sms <= 0 || cycles == flat.end() || cycles->second <= 0 || !config.contains("sm")) return;
  const nlohmann::json& sm = config.at("sm");
  const double sms = r.sms, blocks = r.blocks;
  const double elapsed = cycles->second * sms;  // SM cycles, summed over the SMs
  r.values["Num_Idle_SMs"] = sms * (1.0 - block_active_cycles / (blocks * elapsed));
  auto cycles_per_instruction = [&](const char* lanes_key) {
    const double lanes = sm.value(lanes_key, 0.0);
    return lanes > 0 ? 32.0 * blocks / lanes : 0.0;
  };
  const double fp32 = cycles_per_instruction("fp32_lanes"), integer = cycles_per_instruction("int_lanes");
  const double fp64 = cycles_per_instruction("fp64_lanes"), tensor = cycles_per_instruction("tensor_lanes");
  double active = 0;
  for (const auto& [count, per_instruction] :
       {std::pair{work.fp32_instructions, fp32}, std::pair{work.int_instructions, integer},
        std::pair{2 * work.fp64_passes, fp64}, std::pair{2 * work.tensor_instructions, tensor}}) {
    if (count == 0) continue;
    if (per_instruction <= 0) return;  // instructions on a pipe without lanes: no pipe time to count
    active += count * per_instruction;
  }
  r.values["Pipeline_Duty"] = active / elapsed / 5;
}

// A counter both sides have: true and the two values, or false.
bool both_counters(const HwRow& row, const SimulatedCounters& sim, const char* counter, double& hw,
                   double& simulated) {
  const auto h = row.counters.find(counter);
  const auto s = sim.values.find(counter);
  if (h == row.counters.end() || s == sim.values.end()) return false;
  hw = h->second, simulated = s->second;
  return true;
}

// Per sub-partition cycles with no warp resident, hardware and model: Num_Idle_SMs / SMs x elapsed.
bool no_warp_cycles(const HwRow& row, const SimulatedCounters& sim, double& hw_no_warp, double& sim_no_warp) {
  constexpr double kHardwareSms = 80;  // AccelWattch's gen_hw_perf_csv.py scales Num_Idle_SMs by 80
  double hw_cycles, sim_cycles, hw_idle, sim_idle;
  if (!both_counters(row, sim, "Elapsed_Cycles", hw_cycles, sim_cycles) ||
      !both_counters(row, sim, "Num_Idle_SMs", hw_idle, sim_idle) || sim.sms <= 0)
    return false;
  hw_no_warp = hw_idle / kHardwareSms * hw_cycles;
  sim_no_warp = sim_idle / sim.sms * sim_cycles;
  return true;
}

}  // namespace

std::optional<double> idle_gap_cycles(const HwRow& row, const SimulatedCounters& sim) {
  double hw_no_warp, sim_no_warp;
  if (!no_warp_cycles(row, sim, hw_no_warp, sim_no_warp)) return std::nullopt;
  return hw_no_warp - sim_no_warp;
}

std::string time_split_row(const HwRow& row, const SimulatedCounters& sim) {
  double hw_cycles, sim_cycles, hw_duty, sim_duty, hw_no_warp, sim_no_warp;
  if (!both_counters(row, sim, "Elapsed_Cycles", hw_cycles, sim_cycles) ||
      !no_warp_cycles(row, sim, hw_no_warp, sim_no_warp) ||
      !both_counters(row, sim, "Pipeline_Duty", hw_duty, sim_duty) || hw_duty <= 0)
    return "";
  auto whole = [](double v) { return format_number(std::round(v)); };
  constexpr double kHardwareBlocks = 4;  // a GV100 SM's sub-partitions
  const double hw_work = hw_duty * 5 / kHardwareBlocks * hw_cycles;
  const double sim_work = sim_duty * 5 / sim.blocks * sim_cycles;
  return "| " + row.benchmark + " | " + function_name(row.kernel) + " | " + whole(hw_cycles) + " / " +
         whole(sim_cycles) + " | " + whole(hw_no_warp) + " / " + whole(sim_no_warp) + " | " +
         whole(hw_cycles - hw_no_warp) + " / " + whole(sim_cycles - sim_no_warp) + " | " + whole(hw_work) +
         " / " + whole(sim_work) + " / " + format_number(std::round(sim_work / hw_work * 100) / 100) + " |\n";
}

SimulatedCounters simulated_counters(const std::string& stats_json_path) {
  std::ifstream in(stats_json_path);
  if (!in) throw std::runtime_error(stats_json_path + ": cannot open");
  const nlohmann::json doc = nlohmann::json::parse(in);
  std::map<std::string, double> flat;
  flatten(doc.at("stats"), "", flat);
  const double line = doc.at("config").at("l1").at("line_bytes").get<double>();
  constexpr double kSector = 32;  // Nsight Compute's sectors
  SimulatedCounters r;
  double l1_rh = 0, l1_rm = 0, l2_rh = 0, l2_rm = 0;  // whole-line counts
  std::map<std::string, double> sectors;              // LEVEL.stat -> sum of sector counts
  double dram_rd_bytes = 0, dram_wr_bytes = 0, dram_rd_sectors = 0, dram_wr_sectors = 0;
  bool dram_sectored = false;
  double constant_passes = 0, shared_instructions = 0;
  double block_active_cycles = 0, fp32_instructions = 0, int_instructions = 0, fp64_passes = 0;
  double tensor_instructions = 0;
  double sms = 0;
  // The SMs count constant-cache passes only with dependent latencies (any sm.*_latency set): a run with
  // them compares its count, zero or not; a run without has no figure to compare.
  bool counts_constant_passes = false;
  if (doc.at("config").contains("sm") && doc.at("config").at("sm").is_object())
    for (const auto& [key, value] : doc.at("config").at("sm").items())
      if (key.size() > 8 && key.compare(key.size() - 8, 8, "_latency") == 0 && value.is_number() &&
          value.get<double>() > 0)
        counts_constant_passes = true;
  for (const auto& [key, v] : flat) {
    // system.socketN.COMPONENT.stat[.class]: the component is l1_I, l2_B or dram.
    if (key.rfind("system.socket", 0) != 0) continue;
    const std::size_t c0 = key.find('.', 13);
    if (c0 == std::string::npos) continue;
    const std::size_t c1 = key.find('.', c0 + 1);
    if (c1 == std::string::npos) continue;
    const std::string component = key.substr(c0 + 1, c1 - c0 - 1);
    const std::size_t c2 = key.find('.', c1 + 1);
    const std::string stat = key.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
    const bool l1 = component.rfind("l1_", 0) == 0, l2 = component.rfind("l2_", 0) == 0;
    if (l1 || l2) {
      if (stat == "read_hits") (l1 ? l1_rh : l2_rh) += v;
      if (stat == "read_misses") (l1 ? l1_rm : l2_rm) += v;
      if (stat.find("_sector_") != std::string::npos && c2 == std::string::npos) {
        sectors[std::string(l1 ? "l1." : "l2.") + stat] += v;
        r.sectored = true;
      }
    } else if (component.rfind("sm", 0) == 0 && stat == "constant_cache_passes") {
      constant_passes += v;  // CC_ACC counts the constant cache's accesses, one per distinct address
    } else if (component.rfind("sm", 0) == 0 && stat == "instructions_shared") {
      shared_instructions += v;  // SHRD_ACC counts shared-memory warp instructions (an LDS.128 is one)
    } else if (component.size() > 2 && component.rfind("sm", 0) == 0 && std::isdigit(component[2]) &&
               c2 == std::string::npos) {  // smN: the SMs (not a user-named host port)
      if (stat == "block_active_cycles") block_active_cycles += v, ++sms;
      if (stat == "instructions_fp32") fp32_instructions += v;
      if (stat == "instructions_int") int_instructions += v;
      if (stat == "instructions_fp64") fp64_passes += v;
      if (stat == "fp64_second_passes") fp64_passes += v;
      if (stat == "instructions_tensor") tensor_instructions += v;
    } else if (component == "dram" && c2 == std::string::npos) {
      if (stat == "read_bytes") dram_rd_bytes += v;
      if (stat == "write_bytes") dram_wr_bytes += v;
      if (stat == "read_sectors") dram_rd_sectors += v, dram_sectored = true;
      if (stat == "write_sectors") dram_wr_sectors += v, dram_sectored = true;
    }
  }
  if (r.sectored) {
    const std::pair<const char*, const char*> names[] = {
        {"L1_RH", "l1.read_sector_hits"},  {"L1_RM", "l1.read_sector_misses"},
        {"L1_WH", "l1.write_sector_hits"}, {"L1_WM", "l1.write_sector_misses"},
        {"L2_RH", "l2.read_sector_hits"},  {"L2_RM", "l2.read_sector_misses"},
        {"L2_WH", "l2.write_sector_hits"}, {"L2_WM", "l2.write_sector_misses"}};
    for (const auto& [column, stat] : names)
      if (sectors.count(stat)) r.values[column] = sectors[stat];
    // Nsight's L2 write "hits" (lts__t_sectors_op_write_lookup_hit) count every write sector that the L2
    // takes without a fetch: Volta's L2 keeps byte masks and never reads DRAM for a write, so L2_WM is 0
    // for every kernel of the table. The model's write-back L2 does the same, a write to an absent sector
    // allocating it without a fetch, but its statistics call that a write-sector miss. Every write reaching
    // a bank allocates (models/cache/cache.cpp) when the L2 inserts other origins' requests (remote_insert:
    // twice), or when all writers are its own socket's SMs (one socket, no host initiator); then the
    // hardware's counter is the model's hits plus those allocations. Otherwise (remote_insert: once with
    // other writers) some writes pass through unallocated, and the model's split stays.
    const nlohmann::json& config = doc.at("config");
    const bool l2_write_back = config.contains("l2") && config.at("l2").is_object() &&
                               config.at("l2").value("write_policy", std::string()) == "write_back";
    const bool inserts_all = config.contains("l2") && config.at("l2").is_object() &&
                             config.at("l2").value("remote_insert", std::string("twice")) == "twice";
    const bool one_socket = config.contains("system") && config.at("system").is_object() &&
                            config.at("system").value("sockets", 0) == 1;
    const bool no_host_writers =
        !config.contains("external") || !config.at("external").is_array() || config.at("external").empty();
    if (l2_write_back && (inserts_all || (one_socket && no_host_writers)) &&
        sectors.count("l2.write_sector_misses")) {
      r.values["L2_WH"] = sectors["l2.write_sector_hits"] + sectors["l2.write_sector_misses"];
      r.values["L2_WM"] = 0;
    }
  } else {
    // Whole lines of line / 32 sectors each: the reads' sectors if every thread's bytes covered its line.
    const double spl = line / kSector;
    r.values["L1_RH"] = l1_rh * spl;
    r.values["L1_RM"] = l1_rm * spl;
    r.values["L2_RH"] = l2_rh * spl;
    r.values["L2_RM"] = l2_rm * spl;
  }
  r.values["DRAM_Rd"] = dram_sectored ? dram_rd_sectors : dram_rd_bytes / kSector;
  r.values["DRAM_Wr"] = dram_sectored ? dram_wr_sectors : dram_wr_bytes / kSector;
  if (flat.count("summary.sim_cycles")) r.values["Elapsed_Cycles"] = flat["summary.sim_cycles"];
  if (counts_constant_passes) r.values["CC_ACC"] = constant_passes;
  r.values["SHRD_ACC"] = shared_instructions;
  r.sms = sms;
  if (doc.at("config").contains("sm")) {
    // The processing blocks (sm.processing_blocks), or with one block (the SM-wide issue model) one per
    // issue slot, as the SM counts block_active_cycles.
    const nlohmann::json& sm = doc.at("config").at("sm");
    const double blocks = sm.value("processing_blocks", 1.0);
    r.blocks = std::max(1.0, blocks > 1 ? blocks : sm.value("issue_width", 1.0));
  }
  add_sub_partition_counters(doc.at("config"), flat, block_active_cycles,
                             {fp32_instructions, int_instructions, fp64_passes, tensor_instructions}, r);
  return r;
}

double pearson(const std::vector<double>& hw, const std::vector<double>& sim) {
  const std::size_t n = hw.size();
  if (n < 2) return std::nan("");
  double mh = 0, ms = 0;
  for (std::size_t i = 0; i < n; ++i)
    mh += hw[i], ms += sim[i];
  mh /= double(n);
  ms /= double(n);
  double cov = 0, vh = 0, vs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    cov += (hw[i] - mh) * (sim[i] - ms);
    vh += (hw[i] - mh) * (hw[i] - mh);
    vs += (sim[i] - ms) * (sim[i] - ms);
  }
  return vh > 0 && vs > 0 ? cov / std::sqrt(vh * vs) : std::nan("");
}

double mean_abs_percent_error(const std::vector<double>& hw, const std::vector<double>& sim) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < hw.size(); ++i) {
    if (hw[i] == 0) continue;  // a percentage of nothing
    sum += std::fabs(sim[i] - hw[i]) / std::fabs(hw[i]);
    ++n;
  }
  return n ? 100.0 * sum / double(n) : std::nan("");
}

ReportPart counters_report(const CorrelateOptions& o, const std::vector<CounterJob>& jobs,
                           const std::vector<int>& status, const std::vector<const HwRow*>& unmatched,
                           const std::vector<const HwRow*>& no_cuda, const fs::path& stage,
                           const fs::path& dir, std::ostream& err) {
  std::vector<std::string> failed;
  // Long form: benchmark,kernel,counter,hardware,simulated.
  std::string csv = "benchmark,kernel,counter,hardware,simulated\n";
  std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> by_counter;
  std::ostringstream table, time_split;
  bool any_sectored = false, any_unsectored = false;
  int failures = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const HwRow& row = *jobs[j].row;
    const std::string label = row.benchmark + " " + row.kernel;
    if (status[j] != 0) {
      report_failed_run(label, status[j], jobs[j].run_dir, dir, err, failed);
      ++failures;
      continue;
    }
    SimulatedCounters sim;
    try {
      sim = simulated_counters((stage / jobs[j].run_dir / "out" / "stats.json").string());
    } catch (const std::exception& e) {
      err << "numagpu: error: correlate: " << (dir / jobs[j].run_dir / "out").string() << ": " << e.what()
          << "\n";
      failed.push_back(label + ": " + e.what());
      ++failures;
      continue;
    }
    (sim.sectored ? any_sectored : any_unsectored) = true;
    time_split << time_split_row(row, sim);
    for (const auto& [counter, hw] : row.counters) {
      const auto it = sim.values.find(counter);
      if (it == sim.values.end()) continue;  // the model has no such counter
      csv += csv_field(row.benchmark) + "," + csv_field(row.kernel) + "," + csv_field(counter) + "," +
             format_number(hw) + "," + format_number(it->second) + "\n";
      by_counter[counter].first.push_back(hw);
      by_counter[counter].second.push_back(it->second);
      const double pct = hw != 0 ? 100.0 * (it->second - hw) / hw : std::nan("");
      table << "| " << row.benchmark << " | " << function_name(row.kernel) << " | " << counter << " | "
            << format_number(hw) << " | " << format_number(it->second) << " | "
            << (std::isnan(pct) ? std::string("-") : format_number(std::round(pct * 10) / 10)) << " |\n";
    }
  }
  std::ostringstream md;
  md << "# numagpu correlate\n\nHardware: `" << o.hw_csv
     << "`; configuration: " << (o.config.empty() ? std::string("the built-in system") : "`" + o.config + "`")
     << ".\n\n";
  if (o.cuda)
    md << "Kernels: the CUDA versions (examples/cuda/, built with numagpu-cc; the map's `cuda` entries), "
          "each "
          "run alone in its program (NUMAGPU_SIMULATE).\n\n";
  if (any_unsectored) {
    md << "The configuration has no sectors: sector counts are whole-line counts x (line / 32 B), which is "
          "what a sectored cache would count only where every thread's bytes cover the line; write hits and "
          "misses are not counted by an unsectored model and are left out.\n\n";
  }
  md << "## Per counter\n\n| counter | kernels | Pearson | mean abs. error % |\n|---|---|---|---|\n";
  for (const auto& [counter, v] : by_counter) {
    const double r = pearson(v.first, v.second), e = mean_abs_percent_error(v.first, v.second);
    md << "| " << counter << " | " << v.first.size() << " | "
       << (std::isnan(r) ? std::string("-") : format_number(std::round(r * 1000) / 1000)) << " | "
       << (std::isnan(e) ? std::string("-") : format_number(std::round(e * 10) / 10)) << " |\n";
  }
  md << "\n## Per kernel\n\n| benchmark | kernel | counter | hardware | simulated | error % "
        "|\n|---|---|---|---|---|---|\n"
     << table.str();
  if (!time_split.str().empty()) {
    md << "\n## Where the time goes (per SM sub-partition)\n\n"
          "From `Elapsed_Cycles`, `Num_Idle_SMs` and `Pipeline_Duty` (docs/correlation.md): the cycles "
          "with no warp resident (`Num_Idle_SMs` / SMs x elapsed; the hardware's script counts 80 SMs), "
          "the rest, and the cycles its five pipes were active, summed (`Pipeline_Duty` x 5 / 4 x "
          "elapsed; the model's sub-partitions are its processing blocks).\n\n"
          "| benchmark | kernel | cycles: hw / sim | no warp resident: hw / sim | with a warp: hw / sim | "
          "pipe work: hw / sim / ratio |\n|---|---|---|---|---|---|\n"
       << time_split.str();
  }
  if (!unmatched.empty()) {
    md << "\n## Not run (no library kernel stands for them)\n\n";
    for (const HwRow* r : unmatched)
      md << "- " << r->benchmark << " " << r->kernel << "\n";
  }
  if (!no_cuda.empty()) {
    md << "\n## Not run (no CUDA version)\n\n";
    for (const HwRow* r : no_cuda)
      md << "- " << r->benchmark << " " << r->kernel << "\n";
  }
  list_failures(md, failed);
  (void)any_sectored;
  write_file_atomically((stage / "correlation.csv").string(), csv);
  write_file_atomically((stage / "correlation.md").string(), md.str());
  return {md.str(), failures};
}

}  // namespace numagpu
