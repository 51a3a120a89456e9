#include "cli/mcpat_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
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
  void param(const std::string& name, const std::string& value) { entry("param", name, value); }
  void param(const std::string& name, double value) { entry("param", name, num(value)); }
  void stat(const std::string& name, double value) { entry("stat", name, num(value)); }
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
  x.param("number_of_cores", cores);
  x.param("number_of_L1Directories", 0);
  x.param("number_of_L2Directories", 0);
  x.param("number_of_L2s", l2s);
  x.param("Private_L2", 0);
  x.param("number_of_L3s", 0);
  x.param("number_of_NoCs", nocs);
  for (const char* h :
       {"homogeneous_cores", "homogeneous_L2s", "homogeneous_L1Directories", "homogeneous_L2Directories",
        "homogeneous_L3s", "homogeneous_ccs", "homogeneous_NoCs"})
    x.param(h, 1);
  x.param("core_tech_node", technology_nm);
  x.param("target_core_clockrate", clock);
  x.param("temperature", 340);
  x.param("number_cache_levels", 2);
  x.param("interconnect_projection_type", 0);
  x.param("device_type", 0);
  x.param("longer_channel_device", 1);
  x.param("power_gating", 0);
  x.param("Embedded", 0);
  x.param("opt_clockrate", 1);
  x.param("machine_bits", 64);
  x.param("virtual_address_width", 64);
  x.param("physical_address_width", static_cast<double>(address_bits));
  x.param("virtual_memory_page_size", static_cast<double>(page_bytes));
  x.stat("total_cycles", cycles);
  x.stat("idle_cycles", 0);
  x.stat("busy_cycles", cycles);

  // The SM as an in-order, multithreaded McPAT core (one hardware thread per warp); its stats are the
  // average per SM. A warp instruction is one instruction; its lanes are the ALU/FPU accesses.
  const double fp = k.sum("sm", "instructions_fp32", cores) + k.sum("sm", "instructions_fp64", cores) +
                    k.sum("sm", "instructions_sfu", cores) + k.sum("sm", "instructions_tensor", cores);
  const double insts = k.sum("sm", "instructions", cores);
  x.open("system.core0", "core0");
  x.param("clock_rate", clock);
  x.param("opt_local", 0);
  x.param("instruction_length", 128);
  x.param("opcode_width", 16);
  x.param("x86", 0);
  x.param("micro_opcode_width", 16);
  x.param("machine_type", 1);
  x.param("number_hardware_threads", static_cast<double>(max_warps));
  x.param("fetch_width", static_cast<double>(issue));
  x.param("number_instruction_fetch_ports", 1);
  x.param("decode_width", static_cast<double>(issue));
  x.param("issue_width", static_cast<double>(issue));
  x.param("peak_issue_width", static_cast<double>(issue));
  x.param("commit_width", static_cast<double>(issue));
  x.param("fp_issue_width", static_cast<double>(issue));
  x.param("prediction_width", 0);
  x.param("pipelines_per_core", "1,1");
  x.param("pipeline_depth", "4,4");
  x.param("ALU_per_core", static_cast<double>(int_lanes));
  x.param("MUL_per_core", static_cast<double>(int_lanes));
  x.param("FPU_per_core", static_cast<double>(fp32_lanes));
  x.param("instruction_buffer_size", static_cast<double>(max_warps));
  x.param("decoded_stream_buffer_size", 0);
  x.param("instruction_window_scheme", 0);
  x.param("instruction_window_size", static_cast<double>(max_warps));
  x.param("fp_instruction_window_size", static_cast<double>(max_warps));
  x.param("ROB_size", 0);
  // McPAT's register file holds archi_Regs_IRF_size registers of machine_bits per thread: sized to the
  // SM's 32-bit registers.
  const double irf =
      std::max(1.0, static_cast<double>(registers) * 32 / (64.0 * static_cast<double>(max_warps)));
  x.param("archi_Regs_IRF_size", std::floor(irf));
  x.param("archi_Regs_FRF_size", 32);
  x.param("phy_Regs_IRF_size", std::floor(irf));
  x.param("phy_Regs_FRF_size", 32);
  x.param("rename_scheme", 0);
  x.param("register_windows_size", 0);
  x.param("LSU_order", "inorder");
  x.param("store_buffer_size", static_cast<double>(outstanding));
  x.param("load_buffer_size", static_cast<double>(outstanding));
  x.param("memory_ports", 1);
  x.param("RAS_size", 0);
  x.param("number_of_BPT", 0);
  x.param("number_of_BTB", 0);
  x.stat("total_instructions", insts);
  x.stat("int_instructions", insts - fp);
  x.stat("fp_instructions", fp);
  x.stat("branch_instructions", k.sum("sm", "instructions_branch", cores));
  x.stat("branch_mispredictions", 0);
  x.stat("load_instructions", k.sum("sm", "loads", cores));
  x.stat("store_instructions", k.sum("sm", "stores", cores));
  x.stat("committed_instructions", insts);
  x.stat("committed_int_instructions", insts - fp);
  x.stat("committed_fp_instructions", fp);
  x.stat("pipeline_duty_cycle", cycles > 0 ? std::min(1.0, k.sum("sm", "issue_cycles", cores) / cycles) : 0);
  x.stat("total_cycles", cycles);
  x.stat("idle_cycles", k.sum("sm", "idle_cycles", cores));
  x.stat("busy_cycles", k.sum("sm", "issue_cycles", cores));
  x.stat("int_regfile_reads", 2 * insts);
  x.stat("int_regfile_writes", insts);
  x.stat("float_regfile_reads", 0);
  x.stat("float_regfile_writes", 0);
  x.stat("function_calls", 0);
  x.stat("context_switches", 0);
  x.stat("ialu_accesses", 32 * (insts - fp));
  x.stat("fpu_accesses", 32 * fp);
  x.stat("mul_accesses", 0);
  counter_stats(x, k, "sm", cores);
  x.open("system.core0.predictor", "PBT");
  x.param("local_predictor_size", "10,3");
  x.param("local_predictor_entries", 1024);
  x.param("global_predictor_entries", 4096);
  x.param("global_predictor_bits", 2);
  x.param("chooser_predictor_entries", 4096);
  x.param("chooser_predictor_bits", 2);
  x.close();
  x.open("system.core0.itlb", "itlb");
  x.param("number_entries", 64);
  x.stat("total_accesses", insts);
  x.stat("total_misses", 0);
  x.close();
  x.open("system.core0.icache", "icache");
  x.param("icache_config", cache_config(16384, 128, 4, 1, false));
  x.param("buffer_sizes", four(16));
  x.stat("read_accesses", insts);
  x.stat("read_misses", 0);
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
  x.stat("read_accesses", 0);
  x.stat("write_accesses", 0);
  x.close();
  x.close();  // core0

  // Placeholders McPAT's parser expects at their positions (numbers of 0: McPAT skips them).
  for (const char* dir : {"L1Directory0", "L2Directory0"}) {
    x.open(std::string("system.") + dir, dir);
    x.param("Directory_type", 0);
    x.param("Dir_config", "4096,2,0,1,100,100,8");
    x.param("buffer_sizes", four(8));
    x.param("clockrate", clock);
    x.param("ports", "1,1,1");
    x.param("device_type", 0);
    x.stat("read_accesses", 0);
    x.stat("write_accesses", 0);
    x.stat("read_misses", 0);
    x.stat("write_misses", 0);
    x.stat("conflicts", 0);
    x.close();
  }

  // One L2 bank (numagpu's l2 instance); stats are the average per bank.
  const bool write_back = config_text(a, "l2", "write_policy") != "write_through";
  x.open("system.L20", "L20");
  x.param("L2_config", cache_config(property(k, "l2", "size_bytes", 262144),
                                    property(k, "l2", "line_bytes", 128), property(k, "l2", "ways", 16),
                                    config_number(a, "l2", "hit_latency_cycles", 30), write_back));
  x.param("buffer_sizes", four(config_number(a, "l2", "max_in_process", 64)));
  x.param("clockrate", clock);
  x.param("ports", "1,1,1");
  x.param("device_type", 0);
  x.stat("write_misses", 0);
  x.stat("duty_cycle", 1);
  counter_stats(x, k, "l2", l2s);
  x.close();

  x.open("system.L30", "L30");
  x.param("L3_config", "1048576,128,16,1,1,40,128,1");
  x.param("clockrate", clock);
  x.param("ports", "1,1,1");
  x.param("device_type", 0);
  x.param("buffer_sizes", four(16));
  x.stat("read_accesses", 0);
  x.stat("write_accesses", 0);
  x.stat("read_misses", 0);
  x.stat("write_misses", 0);
  x.stat("conflicts", 0);
  x.stat("duty_cycle", 0);
  x.close();

  // A socket's crossbar as one router with a port per SM and per L2 bank; stats are the average per crossbar.
  x.open("system.NoC0", "noc0");
  x.param("clockrate", clock);
  x.param("type", 1);
  x.param("horizontal_nodes", 1);
  x.param("vertical_nodes", 1);
  x.param("has_global_link", 0);
  x.param("link_throughput", 1);
  x.param("link_latency", static_cast<double>(config_number(a, "crossbar", "latency_cycles", 1)));
  x.param("input_ports", static_cast<double>(config_number(a, "sm", "per_socket", 1)));
  x.param("output_ports", static_cast<double>(config_number(a, "l2", "banks", 1)));
  x.param("virtual_channel_per_port", 1);
  x.param("flit_bits", static_cast<double>(8 * config_number(a, "crossbar", "port_bytes_per_cycle", 32)));
  x.param("input_buffer_entries_per_vc",
          static_cast<double>(config_number(a, "crossbar", "queue_depth", 16)));
  x.param("chip_coverage", 1);
  x.param("link_routing_over_percentage", 0.5);
  x.stat("duty_cycle", 1);
  counter_stats(x, k, "crossbar", nocs);
  x.close();

  // One component for all memory controllers (McPAT models them as identical): number_mcs of them, one per
  // socket's DRAM, each with that DRAM's channels. Its stats are the totals over all of them.
  const std::uint64_t channels = property(k, "dram", "channels", config_number(a, "dram", "channels", 8));
  const double bus_bits = 128;
  const double mbps_per_channel = static_cast<double>(config_number(a, "dram", "bandwidth_gbps", 768)) *
                                  1000.0 / static_cast<double>(channels);
  x.open("system.mc", "mc");
  x.param("type", 0);
  x.param("mc_clock", std::round(mbps_per_channel / (2 * bus_bits / 8)));
  x.param("peak_transfer_rate", std::round(mbps_per_channel));
  x.param("block_size", static_cast<double>(property(k, "l2", "line_bytes", 128)));
  x.param("llc_line_length", static_cast<double>(property(k, "l2", "line_bytes", 128)));
  x.param("number_mcs", mcs);
  x.param("memory_channels_per_mc", static_cast<double>(channels));
  x.param("number_ranks", 1);
  x.param("withPHY", 1);
  x.param("req_window_size_per_channel", static_cast<double>(config_number(a, "dram", "queue_depth", 32)));
  x.param("IO_buffer_size_per_channel", static_cast<double>(config_number(a, "dram", "queue_depth", 32)));
  x.param("databus_width", bus_bits);
  x.param("addressbus_width", static_cast<double>(address_bits));
  x.param("LVDS", 0);
  x.stat("memory_accesses", k.sum("dram", "reads") + k.sum("dram", "writes"));
  counter_stats(x, k, "dram", 1);
  x.close();

  x.open("system.niu", "niu");
  x.param("type", 0);
  x.param("clockrate", 350);
  x.param("number_units", 0);
  x.stat("duty_cycle", 0);
  x.stat("total_load_perc", 0);
  x.close();
  x.open("system.pcie", "pcie");
  x.param("type", 0);
  x.param("withPHY", 1);
  x.param("clockrate", 350);
  x.param("number_units", 0);
  x.param("num_channels", 8);
  x.stat("duty_cycle", 0);
  x.stat("total_load_perc", 0);
  x.close();
  x.open("system.flashc", "flashc");
  x.param("number_flashcs", 0);
  x.param("type", 1);
  x.param("withPHY", 1);
  x.param("peak_transfer_rate", 200);
  x.stat("duty_cycle", 0);
  x.stat("total_load_perc", 0);
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
