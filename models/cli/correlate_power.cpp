#include "cli/correlate_power.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/correlate_counters.hpp"
#include "cli/study_kernels.hpp"
#include "power/power_model.hpp"
#include "stats/atomic_write.hpp"

namespace numagpu {

namespace fs = std::filesystem;

ReportPart power_report(const CorrelateOptions& o, const std::vector<PowerJob>& jobs,
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
      report_failed_run(row.name, status[j], jobs[j].run_dir, dir, err, failed);
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

}  // namespace numagpu
