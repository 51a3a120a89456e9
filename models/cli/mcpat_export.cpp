#include "cli/mcpat_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "cli/export_common.hpp"

namespace numagpu {

namespace {

// A number as McPAT reads it (atoi/atof): integers without a decimal point, other values exactly enough to
// give the totals back when multiplied by the count.
std::string num(double v) {
  if (std::floor(v) == v && std::fabs(v) < 9e15) return std::to_string(static_cast<long long>(v));
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

class XmlWriter {
 public:
  void open(const std::string& id, const std::string& name) {
    line("<component id=\"" + xml_escaped(id) + "\" name=\"" + xml_escaped(name) + "\">");
    ++depth_;
  }
  void close() {
    --depth_;
    line("</component>");
  }
  // A field's value as McPAT reads it: a text, or a number written by num().
  struct Value {
    std::string text;
    Value(const char* t) : text(t) {}
    Value(std::string t) : text(std::move(t)) {}
    Value(int v) : text(num(v)) {}
    Value(double v) : text(num(v)) {}
    Value(std::uint64_t v) : text(num(static_cast<double>(v))) {}
  };
  using Fields = std::initializer_list<std::pair<const char*, Value>>;
  void param(const std::string& name, const Value& value) { entry("param", name, value.text); }
  void stat(const std::string& name, const Value& value) { entry("stat", name, value.text); }
  void params(Fields fields) {
    for (const auto& [name, value] : fields)
      param(name, value);
  }
  void stats(Fields fields) {
    for (const auto& [name, value] : fields)
      stat(name, value);
  }
  void comment(const std::string& text) { line("<!-- " + xml_comment_text(text) + " -->"); }
  std::string text() const { return os_.str(); }

 private:
  void entry(const char* tag, const std::string& name, const std::string& value) {
    line(std::string("<") + tag + " name=\"" + xml_escaped(name) + "\" value=\"" + xml_escaped(value) +
         "\"/>");
  }
  void line(const std::string& text) {
    os_ << std::string(2 * static_cast<std::size_t>(depth_), ' ') << text << "\n";
  }
  std::ostringstream os_;
  int depth_ = 0;
};

struct Kinds {
  std::map<std::string, std::vector<const power::Instance*>> of;
  const std::vector<const power::Instance*>& operator[](const std::string& kind) const {
    static const std::vector<const power::Instance*> none;
    auto it = of.find(kind);
    return it == of.end() ? none : it->second;
  }
  // Sum over the instances of `kind` of a counter, divided by `per` (1: the total).
  double sum(const std::string& kind, const std::string& counter, double per = 1) const {
    std::uint64_t total = 0;
    for (const power::Instance* i : (*this)[kind])
      total += i->total(counter);
    return per > 0 ? static_cast<double>(total) / per : 0.0;
  }
};

std::uint64_t config_number(const power::Activity& a, const char* section, const char* key,
                            std::uint64_t fallback) {
  const auto s = a.config.find(section);
  if (s == a.config.end() || !s->is_object()) return fallback;
  const auto v = s->find(key);
  if (v == s->end() || !v->is_number() || v->get<double>() <= 0) return fallback;
  return static_cast<std::uint64_t>(v->get<double>());
}

std::string config_text(const power::Activity& a, const char* section, const char* key) {
  const auto s = a.config.find(section);
  if (s == a.config.end() || !s->is_object()) return "";
  const auto v = s->find(key);
  return v != s->end() && v->is_string() ? v->get<std::string>() : "";
}

// A property of the first instance of `kind`, or the fallback.
std::uint64_t property(const Kinds& k, const char* kind, const char* key, std::uint64_t fallback) {
  if (k[kind].empty()) return fallback;
  const auto& p = k[kind].front()->properties;
  const auto v = p.find(key);
  return v != p.end() && v->is_number_unsigned() && v->get<std::uint64_t>() > 0 ? v->get<std::uint64_t>()
                                                                                : fallback;
}

const char* stat_name(const std::string& kind, const std::string& counter) {
  for (const McpatStat& s : kMcpatStats)
    if (kind == s.kind && counter == s.counter) return s.stat;
  return nullptr;
}

// Every counter of `kind`: McPAT's stat where it has one, `numagpu.<counter>` otherwise, averaged over
// `per` instances.
void counter_stats(XmlWriter& x, const Kinds& k, const std::string& kind, double per) {
  std::vector<std::string> names;
  for (const power::Instance* i : k[kind])
    for (const std::string& c : i->counters)
      if (std::find(names.begin(), names.end(), c) == names.end()) names.push_back(c);
  for (const std::string& c : names) {
    const char* s = stat_name(kind, c);
    x.stat(s ? s : "numagpu." + c, k.sum(kind, c, per));
  }
}

// capacity, block width, associativity, banks, throughput and latency (core cycles), output width (bytes),
// policy (0 write-through without write allocation, 1 write-back with it): McPAT's cache configuration.
std::string cache_config(std::uint64_t size, std::uint64_t line, std::uint64_t ways, std::uint64_t latency,
                         bool write_back) {
  std::ostringstream os;
  os << size << "," << line << "," << ways << ",1,1," << latency << "," << line << ","
     << (write_back ? 1 : 0);
  return os.str();
}

std::string four(std::uint64_t n) {
  const std::string s = std::to_string(n);
  return s + "," + s + "," + s + "," + s;
}

}  // namespace

std::string mcpat_xml(const power::Activity& a, std::string_view source, int technology_nm) {
  Kinds k;
  for (const power::Instance& inst : a.instances)
    k.of[inst.kind].push_back(&inst);
  // One McPAT core per SM (per L1 when the file has no SM).
  const double cores = static_cast<double>(!k["sm"].empty() ? k["sm"].size() : k["l1"].size());
  const double l1s = static_cast<double>(k["l1"].size());
  const double l2s = static_cast<double>(k["l2"].size());
  const double nocs = static_cast<double>(k["crossbar"].size());
  const double mcs = static_cast<double>(k["dram"].size());
  const double clock = static_cast<double>(a.clock_mhz);
  const double cycles = static_cast<double>(a.duration_cycles);

  const std::uint64_t max_warps = config_number(a, "sm", "max_warps", 64);
  const std::uint64_t issue = config_number(a, "sm", "issue_width", 1);
  const std::uint64_t registers = config_number(a, "sm", "registers", 65536);
  const std::uint64_t fp32_lanes = config_number(a, "sm", "fp32_lanes", 64);
  const std::uint64_t int_lanes = config_number(a, "sm", "int_lanes", 64);
  const std::uint64_t outstanding = config_number(a, "sm", "max_outstanding", 128);
  const std::uint64_t address_bits = config_number(a, "memory", "address_bits", 48);
  const std::uint64_t page_bytes = config_number(a, "memory", "page_bytes", 4096);

  XmlWriter x;
  x.open("root", "root");
  x.open("system", "system");
  x.comment(
      "The simulated GPU (all sockets) as one McPAT chip: docs/power.md, \"McPAT\", explains every field.");
  x.params({{"number_of_cores", cores},
            {"number_of_L1Directories", 0},
            {"number_of_L2Directories", 0},
            {"number_of_L2s", l2s},
            {"Private_L2", 0},
            {"number_of_L3s", 0},
            {"number_of_NoCs", nocs}});
  for (const char* h :
       {"homogeneous_cores", "homogeneous_L2s", "homogeneous_L1Directories", "homogeneous_L2Directories",
        "homogeneous_L3s", "homogeneous_ccs", "homogeneous_NoCs"})
    x.param(h, 1);
  x.params({{"core_tech_node", technology_nm},
            {"target_core_clockrate", clock},
            {"temperature", 340},
            {"number_cache_levels", 2},
            {"interconnect_projection_type", 0},
            {"device_type", 0},
            {"longer_channel_device", 1},
            {"power_gating", 0},
            {"Embedded", 0},
            {"opt_clockrate", 1},
            {"machine_bits", 64},
            {"virtual_address_width", 64},
            {"physical_address_width", address_bits},
            {"virtual_memory_page_size", page_bytes}});
  x.stats({{"total_cycles", cycles}, {"idle_cycles", 0}, {"busy_cycles", cycles}});

  // The SM as an in-order, multithreaded McPAT core (one hardware thread per warp); its stats are the
  // average per SM. A warp instruction is one instruction; its lanes are the ALU/FPU accesses.
  const double fp = k.sum("sm", "instructions_fp32", cores) + k.sum("sm", "instructions_fp64", cores) +
                    k.sum("sm", "instructions_sfu", cores) + k.sum("sm", "instructions_tensor", cores);
  const double insts = k.sum("sm", "instructions", cores);
  x.open("system.core0", "core0");
  x.params({{"clock_rate", clock},
            {"opt_local", 0},
            {"instruction_length", 128},
            {"opcode_width", 16},
            {"x86", 0},
            {"micro_opcode_width", 16},
            {"machine_type", 1},
            {"number_hardware_threads", max_warps},
            {"fetch_width", issue},
            {"number_instruction_fetch_ports", 1},
            {"decode_width", issue},
            {"issue_width", issue},
            {"peak_issue_width", issue},
            {"commit_width", issue},
            {"fp_issue_width", issue},
            {"prediction_width", 0},
            {"pipelines_per_core", "1,1"},
            {"pipeline_depth", "4,4"},
            {"ALU_per_core", int_lanes},
            {"MUL_per_core", int_lanes},
            {"FPU_per_core", fp32_lanes},
            {"instruction_buffer_size", max_warps},
            {"decoded_stream_buffer_size", 0},
            {"instruction_window_scheme", 0},
            {"instruction_window_size", max_warps},
            {"fp_instruction_window_size", max_warps},
            {"ROB_size", 0}});
  // McPAT's register file holds archi_Regs_IRF_size registers of machine_bits per thread: sized to the
  // SM's 32-bit registers.
  const double irf = std::max(1.0, static_cast<double>(registers) * 32 / (64.0 * max_warps));
  x.params({{"archi_Regs_IRF_size", std::floor(irf)},
            {"archi_Regs_FRF_size", 32},
            {"phy_Regs_IRF_size", std::floor(irf)},
            {"phy_Regs_FRF_size", 32},
            {"rename_scheme", 0},
            {"register_windows_size", 0},
            {"LSU_order", "inorder"},
            {"store_buffer_size", outstanding},
            {"load_buffer_size", outstanding},
            {"memory_ports", 1},
            {"RAS_size", 0},
            {"number_of_BPT", 0},
            {"number_of_BTB", 0}});
  x.stats(
      {{"total_instructions", insts},
       {"int_instructions", insts - fp},
       {"fp_instructions", fp},
       {"branch_instructions", k.sum("sm", "instructions_branch", cores)},
       {"branch_mispredictions", 0},
       {"load_instructions", k.sum("sm", "loads", cores)},
       {"store_instructions", k.sum("sm", "stores", cores)},
       {"committed_instructions", insts},
       {"committed_int_instructions", insts - fp},
       {"committed_fp_instructions", fp},
       {"pipeline_duty_cycle", cycles > 0 ? std::min(1.0, k.sum("sm", "issue_cycles", cores) / cycles) : 0},
       {"total_cycles", cycles},
       {"idle_cycles", k.sum("sm", "idle_cycles", cores)},
       {"busy_cycles", k.sum("sm", "issue_cycles", cores)},
       {"int_regfile_reads", 2 * insts},
       {"int_regfile_writes", insts},
       {"float_regfile_reads", 0},
       {"float_regfile_writes", 0},
       {"function_calls", 0},
       {"context_switches", 0},
       {"ialu_accesses", 32 * (insts - fp)},
       {"fpu_accesses", 32 * fp},
       {"mul_accesses", 0}});
  counter_stats(x, k, "sm", cores);
  x.open("system.core0.predictor", "PBT");
  x.params({{"local_predictor_size", "10,3"},
            {"local_predictor_entries", 1024},
            {"global_predictor_entries", 4096},
            {"global_predictor_bits", 2},
            {"chooser_predictor_entries", 4096},
            {"chooser_predictor_bits", 2}});
  x.close();
  x.open("system.core0.itlb", "itlb");
  x.param("number_entries", 64);
  x.stats({{"total_accesses", insts}, {"total_misses", 0}});
  x.close();
  x.open("system.core0.icache", "icache");
  x.params({{"icache_config", cache_config(16384, 128, 4, 1, false)}, {"buffer_sizes", four(16)}});
  x.stats({{"read_accesses", insts}, {"read_misses", 0}});
  x.close();
  x.open("system.core0.dtlb", "dtlb");
  x.param("number_entries", 64);
  x.stat("total_accesses",
         k.sum("sm", "loads", cores) + k.sum("sm", "stores", cores) + k.sum("sm", "atomics", cores));
  x.stat("total_misses", 0);
  x.close();
  // The SM's L1 data cache; its stats are the average per L1.
  x.open("system.core0.dcache", "dcache");
  x.param("dcache_config", cache_config(property(k, "l1", "size_bytes", 131072),
                                        property(k, "l1", "line_bytes", 128), property(k, "l1", "ways", 4),
                                        config_number(a, "l1", "hit_latency_cycles", 28), false));
  x.param("buffer_sizes", four(config_number(a, "l1", "max_in_process", 128)));
  x.stat("write_misses", 0);
  counter_stats(x, k, "l1", l1s);
  x.close();
  x.open("system.core0.BTB", "BTB");
  x.param("BTB_config", "2048,4,2,1,1,3");
  x.stats({{"read_accesses", 0}, {"write_accesses", 0}});
  x.close();
  x.close();  // core0

  // Placeholders McPAT's parser expects at their positions (numbers of 0: McPAT skips them).
  for (const char* dir : {"L1Directory0", "L2Directory0"}) {
    x.open(std::string("system.") + dir, dir);
    x.params({{"Directory_type", 0},
              {"Dir_config", "4096,2,0,1,100,100,8"},
              {"buffer_sizes", four(8)},
              {"clockrate", clock},
              {"ports", "1,1,1"},
              {"device_type", 0}});
    x.stats({{"read_accesses", 0},
             {"write_accesses", 0},
             {"read_misses", 0},
             {"write_misses", 0},
             {"conflicts", 0}});
    x.close();
  }

  // One L2 bank (numagpu's l2 instance); stats are the average per bank.
  const bool write_back = config_text(a, "l2", "write_policy") != "write_through";
  x.open("system.L20", "L20");
  x.param("L2_config", cache_config(property(k, "l2", "size_bytes", 262144),
                                    property(k, "l2", "line_bytes", 128), property(k, "l2", "ways", 16),
                                    config_number(a, "l2", "hit_latency_cycles", 30), write_back));
  x.params({{"buffer_sizes", four(config_number(a, "l2", "max_in_process", 64))},
            {"clockrate", clock},
            {"ports", "1,1,1"},
            {"device_type", 0}});
  x.stats({{"write_misses", 0}, {"duty_cycle", 1}});
  counter_stats(x, k, "l2", l2s);
  x.close();

  x.open("system.L30", "L30");
  x.params({{"L3_config", "1048576,128,16,1,1,40,128,1"},
            {"clockrate", clock},
            {"ports", "1,1,1"},
            {"device_type", 0},
            {"buffer_sizes", four(16)}});
  x.stats({{"read_accesses", 0},
           {"write_accesses", 0},
           {"read_misses", 0},
           {"write_misses", 0},
           {"conflicts", 0},
           {"duty_cycle", 0}});
  x.close();

  // A socket's crossbar as one router with a port per SM and per L2 bank; stats are the average per crossbar.
  x.open("system.NoC0", "noc0");
  x.params(
      {{"clockrate", clock},
       {"type", 1},
       {"horizontal_nodes", 1},
       {"vertical_nodes", 1},
       {"has_global_link", 0},
       {"link_throughput", 1},
       {"link_latency", static_cast<double>(config_number(a, "crossbar", "latency_cycles", 1))},
       {"input_ports", static_cast<double>(config_number(a, "sm", "per_socket", 1))},
       {"output_ports", static_cast<double>(config_number(a, "l2", "banks", 1))},
       {"virtual_channel_per_port", 1},
       {"flit_bits", static_cast<double>(8 * config_number(a, "crossbar", "port_bytes_per_cycle", 32))}});
  x.param("input_buffer_entries_per_vc",
          static_cast<double>(config_number(a, "crossbar", "queue_depth", 16)));
  x.params({{"chip_coverage", 1}, {"link_routing_over_percentage", 0.5}});
  x.stat("duty_cycle", 1);
  counter_stats(x, k, "crossbar", nocs);
  x.close();

  // One component for all memory controllers (McPAT models them as identical): number_mcs of them, one per
  // socket's DRAM, each with that DRAM's channels. Its stats are the totals over all of them.
  const std::uint64_t channels = property(k, "dram", "channels", config_number(a, "dram", "channels", 8));
  const double bus_bits = 128;
  const double mbps_per_channel =
      static_cast<double>(config_number(a, "dram", "bandwidth_gbps", 768)) * 1000.0 / channels;
  x.open("system.mc", "mc");
  x.params({{"type", 0},
            {"mc_clock", std::round(mbps_per_channel / (2 * bus_bits / 8))},
            {"peak_transfer_rate", std::round(mbps_per_channel)},
            {"block_size", static_cast<double>(property(k, "l2", "line_bytes", 128))},
            {"llc_line_length", static_cast<double>(property(k, "l2", "line_bytes", 128))},
            {"number_mcs", mcs},
            {"memory_channels_per_mc", channels},
            {"number_ranks", 1},
            {"withPHY", 1},
            {"req_window_size_per_channel", static_cast<double>(config_number(a, "dram", "queue_depth", 32))},
            {"IO_buffer_size_per_channel", static_cast<double>(config_number(a, "dram", "queue_depth", 32))},
            {"databus_width", bus_bits},
            {"addressbus_width", address_bits},
            {"LVDS", 0}});
  x.stat("memory_accesses", k.sum("dram", "reads") + k.sum("dram", "writes"));
  counter_stats(x, k, "dram", 1);
  x.close();

  x.open("system.niu", "niu");
  x.params({{"type", 0}, {"clockrate", 350}, {"number_units", 0}});
  x.stats({{"duty_cycle", 0}, {"total_load_perc", 0}});
  x.close();
  x.open("system.pcie", "pcie");
  x.params({{"type", 0}, {"withPHY", 1}, {"clockrate", 350}, {"number_units", 0}, {"num_channels", 8}});
  x.stats({{"duty_cycle", 0}, {"total_load_perc", 0}});
  x.close();
  x.open("system.flashc", "flashc");
  x.params({{"number_flashcs", 0}, {"type", 1}, {"withPHY", 1}, {"peak_transfer_rate", 200}});
  x.stats({{"duty_cycle", 0}, {"total_load_perc", 0}});
  x.close();

  x.close();  // system
  x.close();  // root
  return "<?xml version=\"1.0\" ?>\n<!-- McPAT input: " + xml_comment_text(export_provenance(a, source)) +
         ". -->\n" +
         "<!-- GPU-like configuration as GPUWattch/AccelWattch use McPAT; fields: docs/power.md, \"McPAT\". "
         "-->\n" +
         x.text();
}

}  // namespace numagpu
