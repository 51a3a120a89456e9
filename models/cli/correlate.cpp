#include "cli/correlate.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

#include "cli/embedded_scripts.hpp"
#include "cli/interrupt.hpp"
#include "cli/python_script.hpp"
#include "cli/run.hpp"
#include "cli/subprocess.hpp"
#include "config/config.hpp"
#include "kernels/library.hpp"
#include "power/power_model.hpp"
#include "stats/atomic_write.hpp"
#include "system/system_config.hpp"

namespace numagpu {

namespace fs = std::filesystem;

namespace {

// The function's name in a kernel column: Nsight writes C++ kernels mangled (_Z14calculate_tempiPf...), C
// ones plain (findK).
// (_ZN...E for a name in namespaces: its last component).
std::string function_name(const std::string& kernel) {
  if (kernel.rfind("_Z", 0) != 0) return kernel;
  const bool nested = kernel.size() > 2 && kernel[2] == 'N';
  std::size_t i = nested ? 3 : 2;
  std::string name;
  do {
    std::size_t length = 0;
    while (i < kernel.size() && std::isdigit(static_cast<unsigned char>(kernel[i])))
      length = length * 10 + static_cast<std::size_t>(kernel[i++] - '0');
    if (length == 0 || i + length > kernel.size()) break;
    name = kernel.substr(i, length);
    i += length;
  } while (nested && i < kernel.size() && std::isdigit(static_cast<unsigned char>(kernel[i])));
  return name.empty() ? kernel : name;
}

// The kernels of the GV100 study (Accel-Sim's define-power.yml runs) and the library kernels that stand for
// them, at their reference inputs (the library's default arguments).
struct StudyEntry {
  const char* benchmark;
  const char* function;
  const char* library_name;
  unsigned launches;  // launches simulated and compared with the row (its script divides the summed
                      // counters by the launches, so a row is one launch's mean: 1 for every kernel here)
};
constexpr StudyEntry kStudy[] = {
    {"hotspot-rodinia-3.1", "calculate_temp", "rodinia/hotspot", 1},  // 2 steps, pyramid 2: one launch
    {"backprop-rodinia-3.1", "bpnn_layerforward_CUDA", "rodinia/backprop_layerforward", 1},
    {"backprop-rodinia-3.1", "bpnn_adjust_weights_cuda", "rodinia/backprop_adjust_weights", 1},
    {"b+tree-rodinia-3.1", "findK", "rodinia/btree_findK", 1},
    {"b+tree-rodinia-3.1", "findRangeK", "rodinia/btree_findRangeK", 1},
    {"kmeans-rodinia-3.1", "kmeansPoint", "rodinia/kmeans_kmeansPoint", 1},
    // `srad_v1 100 ...` launches srad 100 times, but the table's srad row holds non-integer sector counts
    // (28,986.5 DRAM sectors read): a mean over the launches, not a sum (a sum of whole sectors is whole). So
    // one launch is compared with it (docs/correlation.md).
    {"srad_v1-rodinia-3.1", "srad", "rodinia/srad_v1_srad", 1},
    {"parboil-sgemm", "mysgemmNT", "parboil/sgemm_mysgemmNT", 1},
    {"dct8x8", "CUDAkernel1DCT", "cuda-samples/dct8x8_CUDAkernel1DCT", 1},
    {"dct8x8", "CUDAkernel2DCT", "cuda-samples/dct8x8_CUDAkernel2DCT", 1},
    // The study's other kernels (its blind set): matched by their function names alone (their benchmark
    // names are not public here), each at its library defaults, one launch (the table's rows are per-launch
    // means, as srad's shows). CUTLASS's wmma_gemm_nn runs at three sizes under one kernel name, which the
    // table's rows would have to tell apart: it is not mapped.
    {"", "dynproc_kernel", "rodinia/pathfinder_dynproc", 1},
    {"", "mb_sad_calc", "parboil/sad_mb_sad_calc", 1},
    {"", "ComputeQ_GPU", "parboil/mri-q_ComputeQ", 1},
    {"", "binomialOptionsKernel", "cuda-samples/binomialOptions", 1},
    {"", "fwtBatch1Kernel", "cuda-samples/fastWalshTransform_fwtBatch1", 1},
    {"", "fwtBatch2Kernel", "cuda-samples/fastWalshTransform_fwtBatch2", 1},
    {"", "histogram64Kernel", "cuda-samples/histogram64", 1},
    {"", "mergeHistogram64Kernel", "cuda-samples/histogram64_merge", 1},
    {"", "mergeSortSharedKernel", "cuda-samples/mergeSort_mergeSortShared", 1},
    {"", "generateSampleRanksKernel", "cuda-samples/mergeSort_generateSampleRanks", 1},
    {"", "mergeRanksAndIndicesKernel", "cuda-samples/mergeSort_mergeRanksAndIndices", 1},
    {"", "mergeElementaryIntervalsKernel", "cuda-samples/mergeSort_mergeElementaryIntervals", 1},
    {"", "quasirandomGeneratorKernel", "cuda-samples/quasirandomGenerator_quasirandomGenerator", 1},
    {"", "inverseCNDKernel", "cuda-samples/quasirandomGenerator_inverseCND", 1},
    {"", "sobolGPU_kernel", "cuda-samples/SobolQRNG", 1},
    {"", "compute_gemm", "cuda-samples/cudaTensorCoreGemm", 1},
};

// The measured-power rows name kernels `<app>_k<N>`: the N-th kernel of the application that the study
// measures, in launch order. The study's power runs use one binary per kernel (AccelWattch's
// profile_validation_power.sh: `btree_k1`, `dct8x8_k2`, ...), so kernels it does not measure (dct8x8's
// inverse transforms, mri-q's ComputePhiMag) take no number. Launch orders: b+tree's command.txt runs `j`
// (findRangeK) before `k` (findK); backprop runs the forward layer before the weight adjustment; dct8x8 runs
// its 1DCT wrapper before its 2DCT one; mergeSort sorts the shared-memory blocks before ranking samples;
// quasirandomGenerator generates before it transforms; fastWalshTransform's fwtBatchGPU launches the
// fwtBatch2Kernel passes before the final fwtBatch1Kernel; CUTLASS's three sizes are three binaries.
struct PowerEntry {
  const char* app;
  unsigned index;  // N of `_k<N>`
  const char* library_name;
  const char* args;
};
constexpr PowerEntry kPowerStudy[] = {
    {"backprop", 1, "rodinia/backprop_layerforward", ""},
    {"backprop", 2, "rodinia/backprop_adjust_weights", ""},
    {"btree", 1, "rodinia/btree_findRangeK", ""},
    {"btree", 2, "rodinia/btree_findK", ""},
    {"dct8x8", 1, "cuda-samples/dct8x8_CUDAkernel1DCT", ""},
    {"dct8x8", 2, "cuda-samples/dct8x8_CUDAkernel2DCT", ""},
    {"hotspot", 1, "rodinia/hotspot", ""},
    {"kmeans", 1, "rodinia/kmeans_kmeansPoint", ""},
    {"parboil_sgemm", 1, "parboil/sgemm_mysgemmNT", ""},
    {"srad_v1", 1, "rodinia/srad_v1_srad", ""},
    // The blind set's applications.
    {"binomialOptions", 1, "cuda-samples/binomialOptions", ""},
    {"cudaTensorCoreGemm", 1, "cuda-samples/cudaTensorCoreGemm", ""},
    {"cutlass", 1, "cutlass/wmma_gemm_nn", "m=2560 n=16 k=2560"},
    {"cutlass", 2, "cutlass/wmma_gemm_nn", "m=4096 n=128 k=4096"},
    {"cutlass", 3, "cutlass/wmma_gemm_nn", "m=2560 n=512 k=2560"},
    {"fastWalshTransform", 1, "cuda-samples/fastWalshTransform_fwtBatch2", ""},
    {"fastWalshTransform", 2, "cuda-samples/fastWalshTransform_fwtBatch1", ""},
    {"histogram", 1, "cuda-samples/histogram64", ""},
    {"mergeSort", 1, "cuda-samples/mergeSort_mergeSortShared", ""},
    {"mergeSort", 2, "cuda-samples/mergeSort_generateSampleRanks", ""},
    {"parboil_mriq", 1, "parboil/mri-q_ComputeQ", ""},
    {"parboil_sad", 1, "parboil/sad_mb_sad_calc", ""},
    {"pathfinder", 1, "rodinia/pathfinder_dynproc", ""},
    {"quasirandomGenerator", 1, "cuda-samples/quasirandomGenerator_quasirandomGenerator", ""},
    {"quasirandomGenerator", 2, "cuda-samples/quasirandomGenerator_inverseCND", ""},
    {"sobolQRNG", 1, "cuda-samples/SobolQRNG", ""},
};

std::string file_safe(const std::string& s) {
  std::string r;
  for (char c : s)
    r += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return r.substr(0, 60);
}

std::string yaml_quote(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

// Runs `numagpu run` for each command line, at most `jobs` at once; returns each one's exit status (128 + the
// signal for one that a signal ended; -1 for one not started because correlate was interrupted: a run already
// going stops on the same Ctrl-C, keeping its statistics so far).
std::vector<int> run_children(const std::vector<std::vector<std::string>>& commands, unsigned jobs) {
  std::vector<int> status(commands.size(), -1);
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while ((next < commands.size() && interrupt::pending() == 0) || !running.empty()) {
    while (next < commands.size() && running.size() < std::max(1u, jobs) && interrupt::pending() == 0) {
      subprocess::Command run;
      run.argv = commands[next];
      run.program = "/proc/self/exe";  // this numagpu, whatever its argv[0]
      try {
        running[subprocess::start(run)] = next++;
      } catch (const subprocess::SpawnError&) {
        status[next++] = 127;
      }
    }
    std::optional<std::pair<pid_t, subprocess::ExitStatus>> done;
    try {
      done = subprocess::wait_any(/*block=*/true);
    } catch (const std::system_error&) {
      break;  // no child left to wait for
    }
    if (!done) continue;  // a signal: look at the flag
    const auto it = running.find(done->first);
    if (it == running.end()) continue;
    status[it->second] = done->second.shell_code();
    running.erase(it);
  }
  return status;
}

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, double>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_number()) {
    out[prefix] = j.get<double>();
  }
}

std::string format_number(double v) {
  std::ostringstream s;
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    s << static_cast<long long>(v);
  } else {
    s << std::setprecision(10) << v;
  }
  return s.str();
}

// A mean error for the reports: to a tenth of a percent, or "-" when there was nothing to average.
std::string percent_or_dash(double v) {
  return std::isnan(v) ? std::string("-") : format_number(std::round(v * 10) / 10) + " %";
}

}  // namespace

std::optional<StudyKernel> study_kernel(const std::string& benchmark, const std::string& kernel) {
  const std::string fn = function_name(kernel);
  for (const StudyEntry& e : kStudy) {
    const bool benchmark_matches = e.benchmark[0] == '\0' || benchmark == e.benchmark;
    if (benchmark_matches && fn == e.function && kernels::library().count(e.library_name))
      return StudyKernel{e.library_name, "", e.launches};
  }
  return std::nullopt;
}

namespace {

struct PipeWork {
  double fp32_instructions;
  double int_instructions;
  double fp64_passes;  // fp64 warp instructions and their second passes
  double tensor_instructions;
};

// The two counters of the table that AccelWattch computes per SM sub-partition (its
// gen_hw_perf_csv.py): Num_Idle_SMs = 80 x (1 - smsp__cycles_active.avg / elapsed), and Pipeline_Duty = the
// alu, fma, fp64, shared and tensor pipes' sm__pipe_*_cycles_active summed over the sub-partitions, over
// the SMs' elapsed cycles and 5. A sub-partition is a processing block (one per sm.issue_width); its pipe
// of a class has lanes / issue_width lanes, so a warp instruction keeps it active 32 / that many cycles
// (GV100: 2 for the fma and alu pipes of 16 lanes, as NVIDIA gives them, 4 for fp64's 8). On the GV100
// the fp64, fp16 and tensor pipes share one dispatch port, the "shared pipe" (NVIDIA's developer forum,
// "INT32 and FP64 can be used concurrently in the Volta architecture"): an fp64 or tensor instruction keeps
// the shared pipe active as long as its own. fp32 and int instructions are the fma and alu pipes' (which of
// the two takes an instruction does not change the sum). A class with instructions but no pipe lanes (the
// paper system sets none) leaves no Pipeline_Duty figure. Num_Idle_SMs is in the configuration's SMs (the
// table's 80 on the GV100). A run of several launches gives the ratios over its whole time, gaps between
// kernels included (every kernel of the study table is one launch).
// It reads the SM and block counts from r (set before the call): one reading of sm.issue_width.
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

}  // namespace

namespace {

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
  if (doc.at("config").contains("sm"))
    r.blocks = std::max(1.0, doc.at("config").at("sm").value("issue_width", 1.0));
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

std::optional<StudyKernel> power_study_kernel(const std::string& row_name) {
  const std::size_t k = row_name.rfind("_k");
  if (k == std::string::npos || k == 0 || k + 2 >= row_name.size()) return std::nullopt;
  unsigned index = 0;
  for (std::size_t i = k + 2; i < row_name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(row_name[i])) || index > 1000) return std::nullopt;
    index = index * 10 + unsigned(row_name[i] - '0');
  }
  const std::string app = row_name.substr(0, k);
  for (const PowerEntry& e : kPowerStudy) {
    if (app == e.app && index == e.index && kernels::library().count(e.library_name))
      return StudyKernel{e.library_name, e.args, 1};
  }
  return std::nullopt;
}

namespace {

// A field of correlate's CSV outputs, quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string r = "\"";
  for (char c : s)
    r += c == '"' ? std::string("\"\"") : std::string(1, c);
  return r + "\"";
}

// A kernel's run directory, `parent/NAME`: NAME made safe for a file system and unique among `used` (rows
// whose names differ only in unsafe characters, or after their first 60, get directories of their own).
fs::path run_dir_name(const std::string& parent, const std::string& name, std::set<std::string>& used) {
  const std::string base = file_safe(name);
  std::string candidate = base;
  for (unsigned n = 2; !used.insert(candidate).second; ++n)
    candidate = base + "_" + std::to_string(n);
  return fs::path(parent) / candidate;
}

// The workload file that runs `k` once per launch, and the `numagpu run` command for it.
std::vector<std::string> kernel_run(const CorrelateOptions& o, const std::string& workload_name,
                                    const std::string& kernel_name, const StudyKernel& k,
                                    const fs::path& run_dir) {
  fs::create_directories(run_dir);
  std::string yaml = "workload:\n  name: " + yaml_quote(workload_name) + "\n  kernels:\n";
  for (unsigned i = 0; i < k.launches; ++i) {
    yaml += "    - name: " + yaml_quote(kernel_name + (k.launches > 1 ? "_" + std::to_string(i) : "")) +
            "\n      kernel: " + yaml_quote(k.library_name) + "\n      args: " + yaml_quote(k.args) + "\n";
  }
  write_file_atomically((run_dir / "workload.yaml").string(), yaml);
  std::vector<std::string> cmd = {"numagpu", "run", "-q"};
  if (!o.config.empty()) cmd.insert(cmd.end(), {"-c", fs::absolute(o.config).string()});
  cmd.insert(cmd.end(), {"-w", (run_dir / "workload.yaml").string(), "-o", (run_dir / "out").string()});
  return cmd;
}

// What `numagpu run` checks before it simulates, for the configuration and workload of a kernel's run: throws
// config::ConfigError, the one line `run` would print. Done for every run before any starts, so that a bad
// configuration writes nothing.
void check_run_configuration(const CorrelateOptions& o, const fs::path& workload) {
  RunOptions run;
  if (!o.config.empty()) run.config_file = o.config;
  run.workload_file = workload.string();
  const config::Config loaded = load_configuration(run);
  const SystemSpec spec = to_system_spec(loaded);
  if (!spec.external.empty()) {
    loaded.fail(spec.external.front().key,
                "external port '" + spec.external.front().name +
                    "' would stay unbound: the numagpu program binds no host component (docs/tlm-edges.md)");
  }
}

// Runs one of the embedded plot scripts with `args` (cli/python_script.hpp: no shell, its standard output
// discarded). Returns "" when it succeeded, else what went wrong in one line: the script's own error and
// where in the script it was raised, or that matplotlib is missing only when its import failed.
std::string run_plot(std::string_view script, const std::string& name, const std::vector<std::string>& args) {
  const ScriptResult r = run_python_script(script, args, /*keep_stdout=*/false);
  return r.exit_code == 0 ? std::string() : script_failure(r, name);
}

// correlate's outputs (docs/correlation.md): staged in a private directory inside the output directory and
// moved into place together at the end. A commit first removes everything an earlier correlate left there
// (the names below), so that no figure or table of another run stays beside this one's; other files are left
// alone. The report (*.md) is moved in last: an interrupted commit leaves no report of a mixed set.
class Staging {
 public:
  explicit Staging(fs::path dir) : dir_(std::move(dir)) {}
  ~Staging() { abandon(); }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // Creates the output directory when missing and the staging directory in it; throws one line.
  void create() {
    std::error_code ec;
    const bool existed = fs::exists(dir_, ec);
    fs::create_directories(dir_, ec);
    if (ec)
      throw std::runtime_error(dir_.string() + ": cannot create output directory (" + ec.message() + ")");
    created_dir_ = !existed;
    // A commit replaces runs/ and power_runs/ whole: only when they are correlate's (each entry a kernel's
    // directory with its workload.yaml), never a folder of the user's that happens to have the name.
    for (const char* runs : {"runs", "power_runs"}) {
      if (!fs::exists(dir_ / runs)) continue;
      bool ours = fs::is_directory(dir_ / runs);
      for (const auto& entry : fs::directory_iterator(dir_ / runs, ec))
        ours = ours && fs::is_regular_file(entry.path() / "workload.yaml");
      if (!ours || ec) {
        throw std::runtime_error(
            (dir_ / runs).string() +
            ": not an earlier correlate's runs, which correlate replaces; nothing written "
            "(choose another -o)");
      }
    }
    // A staging directory of a correlate that is no longer alive (killed, or ended by a second Ctrl-C):
    // removed. One of a live process never is.
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      const std::string name = entry.path().filename().string(), prefix = ".numagpu-staging.";
      if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() ||
          name.find_first_not_of("0123456789", prefix.size()) != std::string::npos ||
          name.size() > prefix.size() + 9)
        continue;
      const pid_t owner = static_cast<pid_t>(std::stol(name.substr(prefix.size())));
      if (owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
    }
    const fs::path candidate = dir_ / (".numagpu-staging." + std::to_string(::getpid()));
    fs::remove_all(candidate, ec);  // this process's own, of an earlier set (tests run several)
    if (::mkdir(candidate.c_str(), 0777) != 0) {
      const std::string why = std::strerror(errno);
      abandon();
      throw std::runtime_error(dir_.string() + ": cannot write output files there (" + why +
                               "); found before running, nothing written");
    }
    staging_ = candidate;
  }
  const fs::path& path() const { return staging_; }
  const fs::path& dir() const { return dir_; }

  static bool owned(const std::string& name) {
    static const std::set<std::string> fixed = {"correlation.csv",
                                                "correlation.md",
                                                "power_correlation.csv",
                                                "power_breakdown.csv",
                                                "power_correlation.md",
                                                "power_correlation.png",
                                                "power_breakdown.png",
                                                "runs",
                                                "power_runs"};
    return fixed.count(name) ||
           (name.rfind("correlation_", 0) == 0 && name.size() > 16 && name.substr(name.size() - 4) == ".png");
  }

  // Removes the staged figures (a plot failed: all figures or none).
  void drop_figures() {
    for (const auto& entry : fs::directory_iterator(staging_)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 4 && name.substr(name.size() - 4) == ".png") fs::remove(entry.path());
    }
  }

  void commit() {
    const interrupt::DeferSignals held;  // the set is moved in whole; a signal now is taken after
    std::vector<std::string> staged, reports;
    for (const auto& entry : fs::directory_iterator(staging_)) {
      const std::string name = entry.path().filename().string();
      (name.size() > 3 && name.substr(name.size() - 3) == ".md" ? reports : staged).push_back(name);
    }
    std::vector<fs::path> old;
    for (const auto& entry : fs::directory_iterator(dir_))
      if (owned(entry.path().filename().string())) old.push_back(entry.path());
    std::sort(old.begin(), old.end(), [](const fs::path& a, const fs::path& b) {
      return (a.extension() == ".md") > (b.extension() == ".md");  // the old reports go first
    });
    for (const fs::path& p : old)
      fs::remove_all(p);
    std::sort(staged.begin(), staged.end());
    std::sort(reports.begin(), reports.end());
    staged.insert(staged.end(), reports.begin(), reports.end());
    for (const std::string& name : staged) {
      if (::rename((staging_ / name).c_str(), (dir_ / name).c_str()) != 0)
        throw WriteError((dir_ / name).string(), errno);
    }
    ::rmdir(staging_.c_str());
    staging_.clear();
    committed_ = true;
  }

  void abandon() {
    std::error_code ignored;
    if (!staging_.empty()) fs::remove_all(staging_, ignored);
    staging_.clear();
    if (!committed_ && created_dir_) fs::remove(dir_, ignored);  // only when still empty
    created_dir_ = false;
  }

 private:
  fs::path dir_, staging_;
  bool created_dir_ = false, committed_ = false;
};

struct PowerJob {
  const HwPowerRow* row;
  std::string library_name, args;
  fs::path run_dir;  // relative to the output directory
};
struct CounterJob {
  const HwRow* row;
  StudyKernel kernel;
  fs::path run_dir;
};

// What a report part leaves for the command: its report text, how many runs failed, and a line for stdout.
struct Part {
  std::string md;
  int failures = 0;
};

// The failed runs, listed in a report.
void list_failures(std::ostringstream& md, const std::vector<std::string>& failed) {
  if (failed.empty()) return;
  md << "\n## Failed runs (not compared)\n\n";
  for (const std::string& f : failed)
    md << "- " << f << "\n";
}

std::string failure_text(int status) {
  return status < 0 ? std::string("not run: interrupted") : "exit " + std::to_string(status);
}

// Simulated against measured average power, per kernel (docs/power.md, "Correlation with a GV100"). `rows`
// are the measured-power table's, `hw_rows` the counter table's (empty without --hw). Writes
// power_correlation.csv, power_breakdown.csv and power_correlation.md into `stage`.
Part power_report(const CorrelateOptions& o, const std::vector<PowerJob>& jobs,
                  const std::vector<int>& status, const std::vector<const HwPowerRow*>& unmatched,
                  const std::vector<HwRow>& hw_rows, const fs::path& stage, const fs::path& dir,
                  std::ostream& err) {
  // With --hw as well: each library kernel's measured elapsed SM cycles, to price its simulated energy over
  // the hardware's time as well (the energy model's error with the timing model's taken out).
  std::map<std::string, double> hw_cycles;
  std::map<std::string, const HwRow*> hw_row_of;  // for the idle-time attribution
  std::set<std::string> ambiguous;
  for (const HwRow& h : hw_rows) {
    const std::optional<StudyKernel> k = study_kernel(h.benchmark, h.kernel);
    const auto c = h.counters.find("Elapsed_Cycles");
    if (k && c != h.counters.end() && c->second > 0) {
      if (!hw_row_of.emplace(k->library_name, &h).second) ambiguous.insert(k->library_name);
      hw_cycles[k->library_name] = c->second;
    }
  }
  // Two counter rows for one library kernel (a template's instances): which one's time the power table's
  // kernel ran is unknown, so neither is used for it.
  for (const std::string& name : ambiguous)
    hw_cycles.erase(name), hw_row_of.erase(name);
  std::vector<std::string> failed;
  std::string csv = "kernel,hardware,simulated\n";
  std::string breakdown = "kernel,hardware,simulated";
  for (const char* kind : power::kPowerKinds)
    breakdown += std::string(",") + kind;
  breakdown += ",simulated_cycles,hardware_cycles,simulated_at_hardware_time,simulated_with_hardware_idle\n";
  std::vector<double> hw, sim, hw_timed, sim_at_hw_time, hw_idled, sim_with_hw_idle;
  std::ostringstream table;
  std::vector<std::string> above_limit;  // runs with a socket above energy.board.power_limit_w
  int failures = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const HwPowerRow& row = *jobs[j].row;
    const fs::path power_json = stage / jobs[j].run_dir / "out" / "power.json";
    const std::string final_out = (dir / jobs[j].run_dir / "out").string();
    if (status[j] != 0) {
      err << "numagpu: error: correlate: the run of " << row.name << " failed (" << failure_text(status[j])
          << ")" << (status[j] < 0 ? "" : "; see " + final_out) << "\n";
      failed.push_back(row.name + " (" + failure_text(status[j]) + ")" +
                       (status[j] < 0 ? "" : ": " + (jobs[j].run_dir / "out").string()));
      ++failures;
      continue;
    }
    nlohmann::json doc;
    try {
      std::ifstream in(power_json);
      if (!in) throw std::runtime_error(power_json.string() + ": cannot open");
      doc = nlohmann::json::parse(in);
      // Every lookup first, so that a run whose power.json lacks a field adds no half-written row.
      const double watts = doc.at("total").at("power_w").get<double>();
      std::string parts;
      const nlohmann::json& components = doc.at("total").at("components");
      for (const char* kind : power::kPowerKinds)
        parts += "," + format_number(
                           components.contains(kind) ? components.at(kind).at("power_w").get<double>() : 0.0);
      // The same energy over the hardware's elapsed time: static power as simulated (a power, whatever
      // the duration), the dynamic energy spread over the measured kernel time at the configured clock.
      const double duration_cycles = doc.at("duration_cycles").get<double>();
      const double duration_s = doc.at("duration_seconds").get<double>();
      const double clock_mhz = doc.at("clock_mhz").get<double>();
      const auto measured_cycles = hw_cycles.find(jobs[j].library_name);
      std::string timed = "," + format_number(duration_cycles), at_hw_time;
      const double static_j = doc.at("total").at("static_j").get<double>();
      const double dynamic_j = doc.at("total").at("dynamic_j").get<double>();
      if (measured_cycles != hw_cycles.end() && duration_s > 0 && clock_mhz > 0) {
        const double hw_seconds = measured_cycles->second / (clock_mhz * 1e6);
        const double w = static_j / duration_s + dynamic_j / hw_seconds;
        timed += "," + format_number(measured_cycles->second) + "," + format_number(w);
        hw_timed.push_back(row.watts);
        sim_at_hw_time.push_back(w);
        at_hw_time = " | " + format_number(std::round(w * 10) / 10);
      } else {
        timed += ",,";
        if (!hw_cycles.empty()) at_hw_time = " | -";
      }
      // The idle-time attribution (docs/power.md): the simulated time changed by the cycles per
      // sub-partition that the hardware spent with no warp resident beyond the model's (a signed difference:
      // shorter where the model idles more), its dynamic energy spread over that time. It uses a measured
      // figure, so it attributes error; it models nothing.
      std::string with_idle = ",";
      const auto hw_row = hw_row_of.find(jobs[j].library_name);
      if (hw_row != hw_row_of.end() && duration_s > 0 && clock_mhz > 0) {
        std::optional<double> gap;
        try {  // a run without readable statistics loses only this figure
          gap = idle_gap_cycles(
              *hw_row->second, simulated_counters((stage / jobs[j].run_dir / "out" / "stats.json").string()));
        } catch (const std::exception&) {
        }
        const double seconds = gap ? duration_s + *gap / (clock_mhz * 1e6) : 0;
        if (seconds > 0) {
          const double w = static_j / duration_s + dynamic_j / seconds;
          with_idle += format_number(w);
          hw_idled.push_back(row.watts);
          sim_with_hw_idle.push_back(w);
          at_hw_time += " | " + format_number(std::round(w * 10) / 10);
        } else {
          at_hw_time += " | -";
        }
      } else if (!hw_cycles.empty()) {
        at_hw_time += " | -";
      }
      timed += with_idle;
      // The limit is a board's: each socket over it is listed with its own power.
      for (const nlohmann::json& s : doc.at("sockets")) {
        if (!s.value("above_power_limit", false)) continue;
        const std::string socket =
            doc.at("sockets").size() > 1 ? " socket " + std::to_string(s.at("socket").get<int>()) : "";
        above_limit.push_back(row.name + socket + " (" +
                              format_number(std::round(s.at("power_w").get<double>() * 10) / 10) + " W > " +
                              format_number(s.at("power_limit_w").get<double>()) + " W)");
      }
      csv += csv_field(row.name) + "," + format_number(row.watts) + "," + format_number(watts) + "\n";
      breakdown += csv_field(row.name) + "," + format_number(row.watts) + "," + format_number(watts) + parts +
                   timed + "\n";
      hw.push_back(row.watts);
      sim.push_back(watts);
      const double pct = 100.0 * (watts - row.watts) / row.watts;
      table << "| " << row.name << " | " << format_number(std::round(row.watts * 10) / 10) << " | "
            << format_number(std::round(watts * 10) / 10) << " | " << format_number(std::round(pct * 10) / 10)
            << at_hw_time << " |\n";
    } catch (const std::exception& e) {
      err << "numagpu: error: correlate: " << final_out << "/power.json: " << e.what() << "\n";
      failed.push_back(row.name + ": " + (jobs[j].run_dir / "out" / "power.json").string() + ": " + e.what());
      ++failures;
    }
  }
  const double mape = mean_abs_percent_error(hw, sim), r = pearson(hw, sim);
  std::ostringstream md;
  md << "# numagpu correlate --power\n\nMeasured: `" << o.power_csv
     << "`; configuration: " << (o.config.empty() ? std::string("the built-in system") : "`" + o.config + "`")
     << ". Simulated: the average power of one launch (`power.json`, `total.power_w`).\n\n"
     << "Kernels: " << hw.size() << "; mean absolute error " << percent_or_dash(mape) << "; Pearson "
     << (std::isnan(r) ? std::string("-") : format_number(std::round(r * 1000) / 1000)) << ".\n\n";
  if (!o.hw_csv.empty() && hw_cycles.empty()) {
    md << "`--hw` gives no `Elapsed_Cycles` for these kernels: no figure at the hardware's time.\n\n";
  }
  for (const std::string& name : ambiguous)
    md << "`--hw` has several rows that `" << name << "` stands for: none of their times is used.\n\n";
  if (!hw_cycles.empty()) {
    const double mape_hw_time = mean_abs_percent_error(hw_timed, sim_at_hw_time);
    md << "With the hardware's elapsed time (`--hw`'s `Elapsed_Cycles`: the simulated static power plus the "
          "simulated dynamic energy over the measured kernel time, which takes the timing model's error "
          "out): "
       << hw_timed.size() << " kernels, mean absolute error " << percent_or_dash(mape_hw_time) << ".\n\n";
    const double mape_idle = mean_abs_percent_error(hw_idled, sim_with_hw_idle);
    md << "With the hardware's idle time as well (an attribution, not a model: the simulated time lengthened "
          "by the cycles per SM sub-partition that `--hw`'s `Num_Idle_SMs` and `Elapsed_Cycles` give with no "
          "warp resident beyond the model's, the dynamic energy over that time; docs/power.md): "
       << hw_idled.size() << " kernels, mean absolute error " << percent_or_dash(mape_idle)
       << ".\n\n"
          "| kernel | measured W | simulated W | error % | at the hardware's time W | with its idle time W "
          "|\n|---|---|---|---|---|---|\n";
  } else {
    md << "| kernel | measured W | simulated W | error % |\n|---|---|---|---|\n";
  }
  md << table.str();
  if (!above_limit.empty()) {
    md << "\n## Above the board's power limit\n\nThese runs draw more than `energy.board.power_limit_w`. A "
          "real GPU lowers its clock to stay under the limit; numagpu does not model that, so the GPU could "
          "not have run these at the configured clock: a simulated time shorter than the hardware's (the "
          "timing model) is the first suspect.\n\n";
    for (const std::string& k : above_limit)
      md << "- " << k << "\n";
  }
  if (!unmatched.empty()) {
    md << "\n## Not run (no library kernel stands for them)\n\n";
    for (const HwPowerRow* u : unmatched)
      md << "- " << u->name << "\n";
  }
  list_failures(md, failed);
  write_file_atomically((stage / "power_correlation.csv").string(), csv);
  write_file_atomically((stage / "power_breakdown.csv").string(), breakdown);
  write_file_atomically((stage / "power_correlation.md").string(), md.str());
  return {md.str(), failures};
}

// Simulated against measured counters, per kernel and counter (docs/correlation.md): writes correlation.csv
// and correlation.md into `stage`.
Part counters_report(const CorrelateOptions& o, const std::vector<CounterJob>& jobs,
                     const std::vector<int>& status, const std::vector<const HwRow*>& unmatched,
                     const fs::path& stage, const fs::path& dir, std::ostream& err) {
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
      err << "numagpu: error: correlate: the run of " << label << " failed (" << failure_text(status[j])
          << ")" << (status[j] < 0 ? "" : "; see " + (dir / jobs[j].run_dir / "out").string()) << "\n";
      failed.push_back(label + " (" + failure_text(status[j]) + ")" +
                       (status[j] < 0 ? "" : ": " + (jobs[j].run_dir / "out").string()));
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
          "elapsed; the model's sub-partitions are its sm.issue_width).\n\n"
          "| benchmark | kernel | cycles: hw / sim | no warp resident: hw / sim | with a warp: hw / sim | "
          "pipe work: hw / sim / ratio |\n|---|---|---|---|---|---|\n"
       << time_split.str();
  }
  if (!unmatched.empty()) {
    md << "\n## Not run (no library kernel stands for them)\n\n";
    for (const HwRow* r : unmatched)
      md << "- " << r->benchmark << " " << r->kernel << "\n";
  }
  list_failures(md, failed);
  (void)any_sectored;
  write_file_atomically((stage / "correlation.csv").string(), csv);
  write_file_atomically((stage / "correlation.md").string(), md.str());
  return {md.str(), failures};
}

}  // namespace

int correlate_command(const CorrelateOptions& o, std::ostream& out, std::ostream& err) {
  // SIGINT and SIGTERM, as `run` takes them: the first stops starting runs (a Ctrl-C reaches the runs in
  // progress too, which stop keeping their statistics so far; a signal to correlate alone lets them finish),
  // and the results so far are written as a complete set; a second one ends correlate at once.
  interrupt::install_handlers();
  if (o.hw_csv.empty() && o.power_csv.empty()) {
    err << "numagpu: error: correlate: give --hw (counters), --power (measured power) or both\n";
    return kExitBadInput;
  }
  if (!o.config.empty() && !fs::is_regular_file(o.config)) {
    err << "numagpu: error: --config " << o.config << ": no such file\n";
    return kExitBadInput;
  }
  // Bad input writes nothing: the tables are read, and the configuration of every run checked as `run`
  // checks it, before anything runs or appears in the output directory.
  std::vector<HwPowerRow> power_rows;
  std::vector<HwRow> rows;
  try {
    if (!o.power_csv.empty()) power_rows = read_hw_power_csv(o.power_csv);
    if (!o.hw_csv.empty()) rows = read_hw_csv(o.hw_csv);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  Staging staging(fs::absolute(o.out_dir));
  try {
    staging.create();
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  const fs::path& stage = staging.path();
  const fs::path& dir = staging.dir();

  std::vector<PowerJob> power_jobs;
  std::vector<CounterJob> counter_jobs;
  std::vector<const HwPowerRow*> power_unmatched;
  std::vector<const HwRow*> unmatched;
  std::vector<std::vector<std::string>> commands;
  try {
    std::set<std::string> used;
    for (const HwPowerRow& row : power_rows) {
      const std::optional<StudyKernel> k = power_study_kernel(row.name);
      if (!k) {
        power_unmatched.push_back(&row);
        continue;
      }
      const fs::path run_dir = run_dir_name("power_runs", row.name, used);
      commands.push_back(kernel_run(o, row.name, row.name, *k, stage / run_dir));
      power_jobs.push_back({&row, k->library_name, k->args, run_dir});
    }
    used.clear();
    for (const HwRow& row : rows) {
      const std::optional<StudyKernel> k = study_kernel(row.benchmark, row.kernel);
      if (!k) {
        unmatched.push_back(&row);
        continue;
      }
      const fs::path run_dir = run_dir_name("runs", row.benchmark + "__" + function_name(row.kernel), used);
      commands.push_back(kernel_run(o, row.benchmark, function_name(row.kernel), *k, stage / run_dir));
      counter_jobs.push_back({&row, *k, run_dir});
    }
    // Every run's configuration, each library kernel's once (its workload differs only in names).
    std::set<std::string> checked;
    for (const PowerJob& j : power_jobs)
      if (checked.insert(j.library_name + " " + j.args).second)
        check_run_configuration(o, stage / j.run_dir / "workload.yaml");
    for (const CounterJob& j : counter_jobs)
      if (checked.insert(j.kernel.library_name + " " + j.kernel.args).second)
        check_run_configuration(o, stage / j.run_dir / "workload.yaml");
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;  // the staging directory goes with `staging`
  } catch (const std::exception& e) {
    err << "numagpu: error: correlate: " << e.what() << "\n";
    return kExitBadInput;
  }

  if (!o.quiet) {
    if (!o.power_csv.empty()) {
      out << "numagpu correlate --power: " << power_jobs.size() << " of " << power_rows.size()
          << " kernels are in the library; running " << power_jobs.size() << " simulation(s), "
          << std::max(1u, o.jobs) << " at a time\n";
    }
    if (!o.hw_csv.empty()) {
      out << "numagpu correlate: " << counter_jobs.size() << " of " << rows.size()
          << " kernels are in the library; running " << counter_jobs.size() << " simulation(s), "
          << std::max(1u, o.jobs) << " at a time\n";
    }
  }
  out << std::flush;
  const std::vector<int> status = run_children(commands, o.jobs);
  const std::vector<int> power_status(status.begin(), status.begin() + long(power_jobs.size()));
  const std::vector<int> counter_status(status.begin() + long(power_jobs.size()), status.end());

  int failures = 0;
  std::string plot_error;
  std::vector<std::string> wrote;
  Part power, counters;
  try {
    if (!o.power_csv.empty()) {
      power = power_report(o, power_jobs, power_status, power_unmatched, rows, stage, dir, err);
      failures += power.failures;
      plot_error = run_plot(embedded::kPlotPowerCorrelation, "plot_power_correlation.py",
                            {(stage / "power_correlation.csv").string(),
                             (stage / "power_breakdown.csv").string(), stage.string()});
      if (!plot_error.empty()) plot_error = "plot_power_correlation.py: " + plot_error;
    }
    if (!o.hw_csv.empty()) {
      counters = counters_report(o, counter_jobs, counter_status, unmatched, stage, dir, err);
      failures += counters.failures;
      // The scatter plots (python3-matplotlib), as `numagpu plot` draws its figures.
      if (plot_error.empty()) {
        plot_error = run_plot(embedded::kPlotCorrelation, "plot_correlation.py",
                              {(stage / "correlation.csv").string(), stage.string()});
        if (!plot_error.empty()) plot_error = "plot_correlation.py: " + plot_error;
      }
    }
    if (!plot_error.empty()) staging.drop_figures();  // all figures or none
    staging.commit();
  } catch (const std::exception& e) {
    err << "numagpu: error: correlate: " << e.what() << "\n";
    return kExitRunFailed;
  }
  const bool plotted = plot_error.empty();
  if (!o.power_csv.empty()) {
    if (!o.quiet) out << power.md.substr(power.md.find("Kernels:"));
    out << "numagpu: wrote " << (dir / "power_correlation.csv").string()
        << ", power_breakdown.csv, power_correlation.md"
        << (plotted ? ", power_correlation.png, power_breakdown.png" : "") << "\n";
  }
  if (!o.hw_csv.empty()) {
    if (!o.quiet) out << counters.md.substr(counters.md.find("## Per counter"));  // in full
    out << "numagpu: wrote " << (dir / "correlation.csv").string() << ", correlation.md"
        << (plotted ? ", correlation_*.png" : "") << "\n";
  }
  if (!plotted)
    err << "numagpu: error: correlate: plotting failed, no figure written: " << plot_error << "\n";
  if (const int signal_number = interrupt::pending()) {
    err << "numagpu: correlate interrupted by " << (signal_number == SIGINT ? "SIGINT" : "SIGTERM")
        << "; the results so far are written, the runs not finished listed as failed\n";
    return interrupt::exit_status(signal_number);
  }
  return failures || !plotted ? kExitRunFailed : kExitOk;
}

}  // namespace numagpu
