#include "power/power_model.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>

namespace numagpu::power {

using nlohmann::json;

namespace {

constexpr double kPico = 1e-12;
constexpr double kFemto = 1e-15;
constexpr double kNano = 1e-9;

// Counts of one instance over the run (window < 0) or within one window, as doubles for the arithmetic
// (exact up to 2^53).
class Counts {
 public:
  Counts(const Instance& inst, long window) : inst_(inst), window_(window) {}
  double operator()(std::string_view counter) const {
    return double(window_ < 0 ? inst_.total(counter) : inst_.in_window(std::size_t(window_), counter));
  }

 private:
  const Instance& inst_;
  long window_;
};

bool sent_by_gpu(const Instance& link, const char* end) {
  const auto it = link.properties.find(end);
  return it != link.properties.end() && *it == "gpu";
}

// The flip-flops and transistors of a policy block instance (0 when its area is unknown).
double area_figure(const Instance& block, const char* field) {
  const auto area = block.properties.find("area");
  if (area == block.properties.end() || !area->is_object() || !area->contains(field)) return 0;
  return area->at(field).get<double>();
}

double seconds_of(std::uint64_t cycles, std::uint64_t clock_mhz) {
  return double(cycles) / (double(clock_mhz) * 1e6);
}

// Dynamic and static energy summed over a group of instances.
struct Sum {
  double dynamic_j = 0;
  double static_j = 0;
  std::size_t instances = 0;
  void add(const InstanceEnergy& e) {
    dynamic_j += e.dynamic_j;
    static_j += e.static_j;
    ++instances;
  }
  double energy_j() const { return dynamic_j + static_j; }
};

double watts(double joules, double seconds) {
  return seconds > 0 ? joules / seconds : 0.0;
}

json sum_json(const Sum& s, double seconds) {
  return json{{"energy_j", s.energy_j()},
              {"power_w", watts(s.energy_j(), seconds)},
              {"dynamic_j", s.dynamic_j},
              {"static_j", s.static_j}};
}

// Per kind, in the order of kPowerKinds.
struct Group {
  Sum total;
  std::map<std::string, Sum> kinds;
  void add(const std::string& kind, const InstanceEnergy& e) {
    total.add(e);
    kinds[kind].add(e);
  }
  json to_json(double seconds) const {
    json j = sum_json(total, seconds);
    json components = json::object();
    for (const char* k : kPowerKinds) {
      const auto it = kinds.find(k);
      if (it == kinds.end()) continue;
      components[k] = sum_json(it->second, seconds);
      components[k]["instances"] = it->second.instances;
    }
    j["components"] = std::move(components);
    return j;
  }
};

const char* rtl_block_of(const std::string& kind) {
  return kind == "link_balancer" ? "link_balancer" : "cache_partition_ctrl";
}

constexpr unsigned kWarpThreads = 32;

}  // namespace

InstanceEnergy instance_energy(const Instance& inst, long window, double seconds, double clock_hz,
                               const EnergyTable& t) {
  const Counts n(inst, window);
  const std::string& k = inst.kind;
  InstanceEnergy e;
  if (k == "sm") {
    // Every warp instruction pays the common part (fetch, decode, registers), then its class's part. An
    // activity file without class counters (older runs) prices the common part only.
    double pj = n("instructions") * t.sm_instruction_pj;
    for (unsigned c = 0; c < t.sm_class_pj.size(); ++c)
      pj += n(std::string("instructions_") + kInstrClassNames[c]) * t.sm_class_pj[c];
    e.dynamic_j = pj * kPico;
    // After a clock change the resident cycles' own time (resident_ps, activity_recorder.cpp), else cycles
    // at the one clock.
    const bool timed =
        std::find(inst.counters.begin(), inst.counters.end(), "resident_ps") != inst.counters.end();
    const double resident_s = timed          ? n("resident_ps") * kPico
                              : clock_hz > 0 ? n("resident_cycles") / clock_hz
                                             : 0.0;
    // A resident SM's power falls with the threads its warps leave idle (divergence, partial warps): by
    // resident_lane_w per thread the average warp instruction lacks. An activity file without the counter
    // (older runs) is taken as full warps.
    const bool counts_threads =
        std::find(inst.counters.begin(), inst.counters.end(), "thread_instructions") != inst.counters.end();
    const double instructions = n("instructions");
    const double missing_threads =
        counts_threads && instructions > 0
            ? std::max(0.0, double(kWarpThreads) - n("thread_instructions") / instructions)
            : 0.0;
    const bool tensor_active = t.sm_resident_tensor_w > 0 && n("instructions_tensor") > 0;
    const double resident_w = tensor_active
                                  ? t.sm_resident_tensor_w
                                  : std::max(0.0, t.sm_resident_w - t.sm_resident_lane_w * missing_threads);
    e.static_j = t.sm_static_w * seconds + resident_w * resident_s;
  } else if (k == "l1" || k == "l2") {
    const EnergyTable::Cache& c = k == "l1" ? t.l1 : t.l2;
    // Reading a dirty line out for a write-back costs a read; an atomic performed here is a read (counted
    // with the reads) and a write.
    const double reads = n("reads") + n("writebacks") + n("coherence_writebacks");
    const double writes = n("writes") + n("atomics_performed");
    // Sectored caches move sectors through the data array: those read on a hit, written (hit or miss),
    // and filled after a read miss (0 in an unsectored cache, which has no sector counters).
    const double sectors =
        n("read_sector_hits") + n("read_sector_misses") + n("write_sector_hits") + n("write_sector_misses");
    e.dynamic_j = (reads * c.read_pj + writes * c.write_pj + n("fills") * c.fill_pj +
                   n("read_misses") * c.miss_pj + sectors * c.sector_pj) *
                  kPico;
    e.static_j = c.static_w * seconds;
  } else if (k == "crossbar") {
    e.dynamic_j = n("bits") * t.crossbar_pj_per_bit * kPico;
    e.static_j = t.crossbar_static_w * seconds;
  } else if (k == "dram") {
    e.dynamic_j =
        (n("read_bits") * t.dram_read_pj_per_bit + n("write_bits") * t.dram_write_pj_per_bit) * kPico;
    const auto channels = inst.properties.find("channels");
    const double channel_count = channels != inst.properties.end() ? channels->get<double>() : 0.0;
    e.static_j = (t.dram_static_w + t.dram_channel_static_w * channel_count) * seconds;
  } else if (k == "link") {
    // Bits a GPU sends cost link.pj_per_bit; bits a switch sends on are the switch's (below).
    const double gpu_bits = (sent_by_gpu(inst, "a_kind") ? n("bits_a_to_b") : 0.0) +
                            (sent_by_gpu(inst, "b_kind") ? n("bits_b_to_a") : 0.0);
    e.communication_bits = gpu_bits;
    e.communication_j = gpu_bits * t.link_pj_per_bit * kPico;
    e.dynamic_j = e.communication_j + n("turnarounds") * t.link_turnaround_pj * kPico;
    e.static_j = t.link_static_w * seconds;
  } else if (k == "switch") {
    e.communication_j = n("bits") * t.switch_pj_per_bit * kPico;
    e.dynamic_j = e.communication_j;
    e.static_j = t.switch_static_w * seconds;
  } else if (k == "link_balancer" || k == "partition_controller") {
    e.dynamic_j = n("clocked_cycles") * area_figure(inst, "flip_flops") * t.policy_flop_cycle_fj * kFemto;
    e.static_j = area_figure(inst, "transistors") * t.policy_transistor_static_nw * kNano * seconds;
  } else {
    throw std::invalid_argument("no energy model for component kind '" + k + "'");
  }
  return e;
}

json power_document(const Activity& a, const EnergyTable& t, const std::string& version) {
  // After a clock change (activity duration_ps, clock_steps) static power is integrated over the simulated
  // time, a window's length is its cycles at the clock of each (clock_steps), and an SM's resident power is
  // over its resident time (resident_ps): each interval at the clock that was in force.
  const double seconds =
      a.duration_ps ? double(a.duration_ps) * kPico : seconds_of(a.duration_cycles, a.clock_mhz);
  Group total;
  std::vector<Group> sockets(a.sockets);
  Group fabric;
  double comm_j = 0, comm_bits = 0, switch_bits = 0;
  json instances = json::array();
  json blocks = json::array();
  double block_cells = 0, block_flops = 0, block_transistors = 0;
  const double clock_hz =
      a.duration_ps && a.duration_cycles ? double(a.duration_cycles) / seconds : double(a.clock_mhz) * 1e6;
  // Each socket's constant power: a kind of its own, with no instance in the activity.
  auto add_boards = [&](double span_s, Group& all, std::vector<Group>& per_socket) {
    for (Group& g : per_socket) {
      InstanceEnergy board;
      board.static_j = t.board_constant_w * span_s;
      all.add("board", board);
      g.add("board", board);
    }
  };
  add_boards(seconds, total, sockets);
  for (const Instance& inst : a.instances) {
    const InstanceEnergy e = instance_energy(inst, -1, seconds, clock_hz, t);
    total.add(inst.kind, e);
    (inst.socket < 0 ? fabric : sockets.at(std::size_t(inst.socket))).add(inst.kind, e);
    comm_j += e.communication_j;
    comm_bits += e.communication_bits;
    if (inst.kind == "switch") switch_bits += double(inst.total("bits"));
    json j = sum_json(Sum{e.dynamic_j, e.static_j, 1}, seconds);
    j["name"] = inst.name;
    j["kind"] = inst.kind;
    j["socket"] = inst.socket < 0 ? json(nullptr) : json(inst.socket);
    instances.push_back(std::move(j));
    if (inst.kind == "link_balancer" || inst.kind == "partition_controller") {
      json b = sum_json(Sum{e.dynamic_j, e.static_j, 1}, seconds);
      b["name"] = inst.name;
      b["block"] = rtl_block_of(inst.kind);
      b["socket"] = inst.socket < 0 ? json(nullptr) : json(inst.socket);
      const auto area = inst.properties.find("area");
      b["area"] = area != inst.properties.end() ? *area : json(nullptr);
      json activity = json::object();
      for (std::size_t c = 0; c < inst.counters.size(); ++c)
        activity[inst.counters[c]] = inst.totals[c];
      b["activity"] = std::move(activity);
      blocks.push_back(std::move(b));
      block_cells += area_figure(inst, "generic_cells");
      block_flops += area_figure(inst, "flip_flops");
      block_transistors += area_figure(inst, "transistors");
    }
  }

  json sockets_json = json::array();
  for (std::size_t s = 0; s < sockets.size(); ++s) {
    json j = sockets[s].to_json(seconds);
    j["socket"] = s;
    j["power_limit_w"] = t.board_power_limit_w;
    j["above_power_limit"] =
        t.board_power_limit_w > 0 && j.at("power_w").get<double>() > t.board_power_limit_w;
    sockets_json.push_back(std::move(j));
  }

  // Per window: average power of the whole machine, by kind, per socket, of the fabric, and communication.
  json series = json::object();
  series["window_cycles"] = a.window_cycles;
  json starts = json::array(), lengths = json::array(), spans = json::array(), total_w = json::array(),
       dynamic_w = json::array(), static_w = json::array(), fabric_w = json::array(), comm_w = json::array();
  std::map<std::string, json> kinds_w;
  std::vector<json> sockets_w(a.sockets, json::array());
  for (std::size_t w = 0; w < a.windows.size(); ++w) {
    const double ws = !a.clock_steps.empty()
                          ? seconds_of_cycles(a, a.windows[w].start_cycle, a.windows[w].cycles)
                      : a.duration_ps ? double(a.windows[w].cycles) / clock_hz
                                      : seconds_of(a.windows[w].cycles, a.clock_mhz);
    Group all, fab;
    std::vector<Group> per_socket(a.sockets);
    double comm = 0;
    add_boards(ws, all, per_socket);
    for (const Instance& inst : a.instances) {
      const InstanceEnergy e = instance_energy(inst, long(w), ws, clock_hz, t);
      all.add(inst.kind, e);
      (inst.socket < 0 ? fab : per_socket[std::size_t(inst.socket)]).add(inst.kind, e);
      comm += e.communication_j;
    }
    starts.push_back(a.windows[w].start_cycle);
    lengths.push_back(a.windows[w].cycles);
    spans.push_back(ws);
    total_w.push_back(watts(all.total.energy_j(), ws));
    dynamic_w.push_back(watts(all.total.dynamic_j, ws));
    static_w.push_back(watts(all.total.static_j, ws));
    fabric_w.push_back(watts(fab.total.energy_j(), ws));
    comm_w.push_back(watts(comm, ws));
    // Every window holds every instance, so every kind of the run.
    for (const auto& [kind, sum] : all.kinds)
      kinds_w[kind].push_back(watts(sum.energy_j(), ws));
    for (std::size_t s = 0; s < per_socket.size(); ++s)
      sockets_w[s].push_back(watts(per_socket[s].total.energy_j(), ws));
  }
  series["start_cycle"] = std::move(starts);
  series["cycles"] = std::move(lengths);
  series["seconds"] = std::move(spans);
  series["total_w"] = std::move(total_w);
  series["dynamic_w"] = std::move(dynamic_w);
  series["static_w"] = std::move(static_w);
  json components_w = json::object();
  for (const char* k : kPowerKinds) {
    if (!total.kinds.count(k)) continue;
    components_w[k] = a.windows.empty() ? json::array() : kinds_w.at(k);
  }
  series["components_w"] = std::move(components_w);
  series["sockets_w"] = sockets_w;
  series["fabric_w"] = std::move(fabric_w);
  series["communication_w"] = std::move(comm_w);

  json doc = json::object();
  doc["schema"] = "numagpu-power";
  doc["schema_version"] = kPowerSchemaVersion;
  doc["generator"] = {{"name", "numagpu"}, {"version", version}};
  doc["machine_hash"] = a.machine_hash;
  doc["clock_mhz"] = a.clock_mhz;
  doc["duration_cycles"] = a.duration_cycles;
  doc["duration_seconds"] = seconds;
  doc["total"] = total.to_json(seconds);
  doc["sockets"] = std::move(sockets_json);
  doc["fabric"] = fabric.to_json(seconds);
  doc["communication"] = {
      {"method",
       "the paper's (section 6): bits the GPUs send into the fabric x energy.link.pj_per_bit, plus bits the "
       "switches send on x energy.switch.pj_per_bit, over the run's duration"},
      {"gpu_bits", comm_bits},
      {"switch_bits", switch_bits},
      {"energy_j", comm_j},
      {"power_w", watts(comm_j, seconds)}};
  doc["area"] = {
      {"source", "docs/rtl-area.md (yosys, scripts/rtl_area.sh)"},
      {"policy_blocks", std::move(blocks)},
      {"total",
       {{"generic_cells", block_cells}, {"flip_flops", block_flops}, {"transistors", block_transistors}}}};
  doc["series"] = std::move(series);
  doc["instances"] = std::move(instances);
  doc["energy_table"] = t.resolved;
  return doc;
}

std::string power_summary(const json& p) {
  std::ostringstream os;
  char buf[256];
  const double seconds = p.at("duration_seconds").get<double>();
  const json& total = p.at("total");
  std::snprintf(buf, sizeof buf,
                "power       %.2f W average over %.3f us (%.4g J): dynamic %.2f W, static %.2f W\n",
                total.at("power_w").get<double>(), seconds * 1e6, total.at("energy_j").get<double>(),
                watts(total.at("dynamic_j").get<double>(), seconds),
                watts(total.at("static_j").get<double>(), seconds));
  os << buf;
  const json& comm = p.at("communication");
  std::snprintf(buf, sizeof buf,
                "            communication %.2f W (the paper's method: %.4g bits into the fabric)\n",
                comm.at("power_w").get<double>(), comm.at("gpu_bits").get<double>());
  os << buf;
  std::snprintf(buf, sizeof buf, "%-20s %5s  %10s  %7s  %9s  %8s\n", "component", "count", "energy J",
                "avg W", "dynamic W", "static W");
  os << buf;
  for (const auto& [kind, c] : total.at("components").items()) {
    std::snprintf(buf, sizeof buf, "%-20s %5llu  %10.4g  %7.2f  %9.2f  %8.2f\n", kind.c_str(),
                  static_cast<unsigned long long>(c.at("instances").get<std::uint64_t>()),
                  c.at("energy_j").get<double>(), c.at("power_w").get<double>(),
                  watts(c.at("dynamic_j").get<double>(), seconds),
                  watts(c.at("static_j").get<double>(), seconds));
    os << buf;
  }
  os << "socket      energy J    avg W\n";
  for (const json& s : p.at("sockets")) {
    std::snprintf(buf, sizeof buf, "%6llu  %12.4g  %7.2f\n",
                  static_cast<unsigned long long>(s.at("socket").get<std::uint64_t>()),
                  s.at("energy_j").get<double>(), s.at("power_w").get<double>());
    os << buf;
    if (s.value("above_power_limit", false)) {
      std::snprintf(buf, sizeof buf,
                    "        above energy.board.power_limit_w (%.0f W): the GPU could not run this at "
                    "system.clock_mhz (it would lower its clock, which numagpu does not model)\n",
                    s.at("power_limit_w").get<double>());
      os << buf;
    }
  }
  const json& fabric = p.at("fabric");
  if (!fabric.at("components").empty()) {
    std::snprintf(buf, sizeof buf, "fabric  %12.4g  %7.2f\n", fabric.at("energy_j").get<double>(),
                  fabric.at("power_w").get<double>());
    os << buf;
  }
  // The policy blocks, one line per RTL module: instances, area of one, and their power together.
  for (const char* block : {"link_balancer", "cache_partition_ctrl"}) {
    std::size_t count = 0;
    double watts_sum = 0;
    const json* area = nullptr;
    for (const json& b : p.at("area").at("policy_blocks")) {
      if (b.at("block") != block) continue;
      ++count;
      watts_sum += b.at("power_w").get<double>();
      if (!b.at("area").is_null()) area = &b.at("area");
    }
    if (count == 0) continue;
    std::snprintf(buf, sizeof buf, "rtl         %zu x %s", count, block);
    os << buf;
    if (area) {
      std::snprintf(buf, sizeof buf, ": %llu cells, %llu flip-flops, %llu transistors each",
                    static_cast<unsigned long long>(area->at("generic_cells").get<std::uint64_t>()),
                    static_cast<unsigned long long>(area->at("flip_flops").get<std::uint64_t>()),
                    static_cast<unsigned long long>(area->at("transistors").get<std::uint64_t>()));
      os << buf;
    }
    std::snprintf(buf, sizeof buf, "; %.3g W in all\n", watts_sum);
    os << buf;
  }
  return os.str();
}

}  // namespace numagpu::power
