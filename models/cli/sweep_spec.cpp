#include "cli/sweep_spec.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "cli/run.hpp"
#include "system/system_config.hpp"

namespace numagpu {

namespace {

using config::Config;
using config::ConfigError;
using config::Schema;
namespace fs = std::filesystem;

void add_overrides(Schema& parent, const std::string& doc) {
  Schema& item = parent.list("set", doc).element();
  item.string("key", "Configuration key path, as for numagpu run --set (e.g. link.mode)").required();
  item.string("value", "Its value, parsed as YAML like a --set value").required();
}

Schema make_schema() {
  Schema s;
  s.string("name", "Sweep name: letters, digits, '_' and '-'").required();
  s.string("description", "What the sweep shows (copied into the results)").default_value("");
  s.string("study", "Study kind: how numagpu plot study draws the results and which directions CI checks")
      .default_value("");
  s.string("config", "System configuration file of every point, relative to this file; empty: built-in")
      .default_value("");
  add_overrides(s, "Overrides applied to every point, first");

  Schema& workload = s.list("workloads", "Workloads: every grid point runs on each").min_items(1).element();
  workload.string("name", "Workload name in point ids: letters, digits, '_' and '-'").required();
  workload.string("file", "Workload file, relative to this file; empty: the built-in default workload")
      .default_value("");
  add_overrides(workload, "Overrides for this workload's points, after the sweep's");
  Schema& when = workload
                     .list("when",
                           "Overrides for this workload's points that carry an axis label (e.g. the "
                           "schedule and placement a locality-aware runtime picks for this workload), "
                           "applied after the axis values'")
                     .element();
  when.string("label", "An axis value label").required();
  add_overrides(when, "Overrides of this workload's points with that label");

  auto add_axes = [](Schema& parent, const std::string& doc) {
    Schema& axis = parent.list("axes", doc).element();
    axis.string("name", "Axis name (a column of the results): letters, digits, '_' and '-'").required();
    Schema& value = axis.list("values", "The axis' values").min_items(1).element();
    value.string("label", "Value label in point ids: letters, digits, '_' and '-'").required();
    value.string("config", "Replaces the system configuration file for this value; empty: keep")
        .default_value("");
    add_overrides(value, "Overrides of this value, after the workload's");
  };
  add_axes(s, "The grid: every combination of one value of each axis (no axes: one point per workload)");
  Schema& grid = s.list("grids", "Further grids; the sweep's points are the union of all grids").element();
  grid.string("name", "Grid name (reports)").required();
  add_axes(grid, "This grid's axes");

  Schema& stat = s.list("stats", "Statistics to collect from every point").min_items(1).element();
  stat.string("name", "Column name in the results").required();
  stat.string("path",
              "run.KEY (run facts), config.KEY (resolved configuration), power.KEY (the point's power.json, "
              "e.g. power.total.power_w; docs/power.md) or a statistics path; a path component may use * and "
              "? wildcards")
      .required();
  stat.choice("reduce", {"none", "sum", "mean", "min", "max"},
              "Combine every match into one number, or none: keep each match (series stay series)")
      .default_value("none");

  const SlurmSettings defaults;
  Schema& slurm = s.section("slurm",
                            "What each array task of numagpu sweep --slurm asks for (one point per task, one "
                            "CPU); --slurm-option lines come after these and win");
  slurm.string("partition", "sbatch --partition; empty: the cluster's default partition").default_value("");
  slurm.string("account", "sbatch --account; empty: the user's default account").default_value("");
  slurm
      .string(
          "time",
          "sbatch --time of each point's task: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (the collect "
          "step asks for 0:30:00)")
      .default_value(defaults.time);
  slurm
      .string("memory",
              "sbatch --mem of each point's task: a whole number with K, M, G or T (no suffix: M); the "
              "collect step asks for 1G")
      .default_value(defaults.memory);
  return s;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// Slurm's time formats: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS (numbers only, at least one minute).
bool slurm_time(const std::string& t) {
  std::string rest = t;
  const std::size_t dash = t.find('-');
  const bool days = dash != std::string::npos;
  if (days) {
    if (!all_digits(t.substr(0, dash))) return false;
    rest = t.substr(dash + 1);
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = rest.find(':', start);
    parts.push_back(rest.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  for (const std::string& part : parts)
    if (!all_digits(part) || part.size() > 6) return false;
  if (parts.size() > 3) return false;
  bool nonzero = false;
  for (char c : t)
    nonzero = nonzero || (c >= '1' && c <= '9');
  return nonzero;
}

// sbatch --mem: a whole number, optionally followed by K, M, G or T.
bool slurm_memory(const std::string& m) {
  if (m.empty()) return false;
  const char last = m.back();
  const bool suffix = last == 'K' || last == 'M' || last == 'G' || last == 'T';
  const std::string number = suffix ? m.substr(0, m.size() - 1) : m;
  return all_digits(number) && number.size() <= 12 && number.find_first_not_of('0') != std::string::npos;
}

// A partition or account name: no spaces or shell characters (it goes into #SBATCH lines).
bool slurm_name(const std::string& s) {
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.' || c == ',';
    if (!ok) return false;
  }
  return true;
}

constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
constexpr std::uint64_t kFnvPrime = 1099511628211ull;

std::uint64_t fnv1a64(std::uint64_t hash, const char* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= static_cast<unsigned char>(data[i]);
    hash *= kFnvPrime;
  }
  return hash;
}

std::string hex16(std::uint64_t value) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016" PRIx64, value);
  return digits;
}

// "<bytes> <FNV-1a 64 of the bytes>" of a file; nullopt when it cannot be read to its end.
std::optional<std::string> file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::uint64_t hash = kFnvOffset, bytes = 0;
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    hash = fnv1a64(hash, buffer.data(), got);
    bytes += got;
  }
  if (in.bad() || !in.eof()) return std::nullopt;
  return std::to_string(bytes) + " " + hex16(hash);
}

// The inputs hash of files whose digests are `lines` ("" without files).
std::string combine_digests(const std::string& lines) {
  return lines.empty() ? std::string() : hex16(fnv1a64(kFnvOffset, lines.data(), lines.size()));
}

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// An override as written in the spec: "key=value" and where it was written.
struct Override {
  std::string text;
  config::Location where;
  std::string path;  // spec key path of the item, for messages
};

class Loader {
 public:
  Loader(const Config& cfg, std::vector<std::string> extra) : cfg_(cfg), extra_(std::move(extra)) {}

  std::string identifier(const std::string& path) const {
    const std::string v = cfg_.string(path);
    if (!is_identifier(v)) cfg_.fail(path, "'" + v + "' must be letters, digits, '_' and '-' only");
    return v;
  }

  // A file named in the spec, relative to the file that names it (which may be an included spec).
  std::string file_path(const std::string& path) const {
    const std::string v = cfg_.string(path);
    if (v.empty()) return "";
    fs::path p(v);
    if (p.is_relative()) p = fs::path(cfg_.location(path).file).parent_path() / p;
    std::error_code ec;
    const fs::path absolute = fs::absolute(p, ec).lexically_normal();
    if (ec || !fs::is_regular_file(absolute)) cfg_.fail(path, "cannot read '" + p.string() + "'");
    return absolute.string();
  }

  std::vector<Override> overrides(const std::string& list_path) const {
    std::vector<Override> out;
    for (std::size_t i = 0; i < cfg_.list_size(list_path); ++i) {
      const std::string item = list_path + "." + std::to_string(i);
      const std::string key = cfg_.string(item + ".key");
      if (key.empty() || key.find('=') != std::string::npos || key.find(' ') != std::string::npos)
        cfg_.fail(item + ".key", "expected a key path such as link.mode");
      out.push_back({key + "=" + cfg_.string(item + ".value"), cfg_.location(item + ".value"), item});
    }
    return out;
  }

  struct AxisValue {
    std::string label;
    std::string config;
    std::vector<Override> sets;
  };
  struct Axis {
    std::string name;
    std::vector<AxisValue> values;
  };

  std::vector<Axis> axes(const std::string& list_path) const {
    std::vector<Axis> out;
    std::set<std::string> names;
    for (std::size_t a = 0; a < cfg_.list_size(list_path); ++a) {
      const std::string ap = list_path + "." + std::to_string(a);
      Axis axis{identifier(ap + ".name"), {}};
      if (!names.insert(axis.name).second) cfg_.fail(ap + ".name", "axis '" + axis.name + "' appears twice");
      std::set<std::string> labels;
      for (std::size_t v = 0; v < cfg_.list_size(ap + ".values"); ++v) {
        const std::string vp = ap + ".values." + std::to_string(v);
        AxisValue value{identifier(vp + ".label"), file_path(vp + ".config"), overrides(vp + ".set")};
        if (!labels.insert(value.label).second)
          cfg_.fail(vp + ".label", "label '" + value.label + "' appears twice in axis '" + axis.name + "'");
        axis.values.push_back(std::move(value));
      }
      out.push_back(std::move(axis));
    }
    return out;
  }

  SweepSpec load(const std::string& file) {
    SweepSpec spec;
    spec.file = file;
    spec.name = identifier("name");
    spec.description = cfg_.string("description");
    spec.study = cfg_.string("study");
    if (!spec.study.empty() && !is_identifier(spec.study))
      cfg_.fail("study", "'" + spec.study + "' must be letters, digits, '_' and '-' only");
    spec.slurm.partition = cfg_.string("slurm.partition");
    spec.slurm.account = cfg_.string("slurm.account");
    spec.slurm.time = cfg_.string("slurm.time");
    spec.slurm.memory = cfg_.string("slurm.memory");
    for (const char* key : {"slurm.partition", "slurm.account"})
      if (!slurm_name(cfg_.string(key)))
        cfg_.fail(key, "'" + cfg_.string(key) + "' must be letters, digits and '_', '-', '.', ',' only");
    if (!slurm_time(spec.slurm.time))
      cfg_.fail("slurm.time", "'" + spec.slurm.time + "' is not a Slurm time (MM, HH:MM:SS, D-HH:MM, ...)");
    if (!slurm_memory(spec.slurm.memory))
      cfg_.fail("slurm.memory", "'" + spec.slurm.memory + "' is not a Slurm memory size (e.g. 2G, 500M)");
    const std::string base_config = file_path("config");
    const std::vector<Override> base = overrides("set");

    std::set<std::string> stat_names;
    for (std::size_t i = 0; i < cfg_.list_size("stats"); ++i) {
      const std::string sp = "stats." + std::to_string(i);
      SweepStat stat;
      stat.name = cfg_.string(sp + ".name");
      if (stat.name.empty() || stat.name.find_first_of(",\"\n[]") != std::string::npos)
        cfg_.fail(sp + ".name", "expected a column name without commas, quotes or brackets");
      if (!stat_names.insert(stat.name).second)
        cfg_.fail(sp + ".name", "stat '" + stat.name + "' appears twice");
      stat.path = cfg_.string(sp + ".path");
      if (stat.path.empty() || stat.path.front() == '.' || stat.path.back() == '.' ||
          stat.path.find("..") != std::string::npos)
        cfg_.fail(sp + ".path", "expected a dotted path such as summary.sim_cycles");
      static const std::map<std::string, StatReduce> kReduce{{"none", StatReduce::kNone},
                                                             {"sum", StatReduce::kSum},
                                                             {"mean", StatReduce::kMean},
                                                             {"min", StatReduce::kMin},
                                                             {"max", StatReduce::kMax}};
      stat.reduce = kReduce.at(cfg_.string(sp + ".reduce"));
      spec.stats.push_back(stat);
    }

    struct Grid {
      std::string name;
      std::vector<Axis> axes;
    };
    std::vector<Grid> grids;
    if (cfg_.list_size("axes") > 0 || cfg_.list_size("grids") == 0) grids.push_back({"", axes("axes")});
    for (std::size_t g = 0; g < cfg_.list_size("grids"); ++g) {
      const std::string gp = "grids." + std::to_string(g);
      grids.push_back({cfg_.string(gp + ".name"), axes(gp + ".axes")});
    }
    for (const Grid& grid : grids) {
      for (const Axis& axis : grid.axes) {
        bool known = false;
        for (const std::string& n : spec.axis_names)
          known = known || n == axis.name;
        if (!known) spec.axis_names.push_back(axis.name);
      }
    }

    std::set<std::string> workload_names;
    std::map<std::string, std::string> id_origin;
    for (std::size_t w = 0; w < cfg_.list_size("workloads"); ++w) {
      const std::string wp = "workloads." + std::to_string(w);
      const std::string wname = identifier(wp + ".name");
      if (!workload_names.insert(wname).second)
        cfg_.fail(wp + ".name", "workload '" + wname + "' appears twice");
      const std::string wfile = file_path(wp + ".file");
      const std::vector<Override> wsets = overrides(wp + ".set");
      std::vector<std::pair<std::string, std::vector<Override>>> when;
      for (std::size_t k = 0; k < cfg_.list_size(wp + ".when"); ++k) {
        const std::string kp = wp + ".when." + std::to_string(k);
        const std::string label = cfg_.string(kp + ".label");
        bool known = false;
        for (const Grid& grid : grids)
          for (const Axis& axis : grid.axes)
            for (const AxisValue& v : axis.values)
              known = known || v.label == label;
        if (!known) cfg_.fail(kp + ".label", "no axis has a value labelled '" + label + "'");
        when.emplace_back(label, overrides(kp + ".set"));
      }
      for (const Grid& grid : grids) {
        // Odometer over the grid's axes: the last axis varies fastest.
        std::vector<std::size_t> pick(grid.axes.size(), 0);
        while (true) {
          SweepPoint point;
          point.workload = wname;
          point.grid = grid.name;
          point.id = wname;
          point.config_file = base_config;
          point.workload_file = wfile;
          std::vector<Override> sets = base;
          sets.insert(sets.end(), wsets.begin(), wsets.end());
          for (std::size_t a = 0; a < grid.axes.size(); ++a) {
            const AxisValue& v = grid.axes[a].values[pick[a]];
            point.labels.emplace_back(grid.axes[a].name, v.label);
            point.id += "." + v.label;
            if (!v.config.empty()) point.config_file = v.config;
            sets.insert(sets.end(), v.sets.begin(), v.sets.end());
          }
          for (const auto& [label, wsets_for_label] : when)
            for (const auto& [axis, point_label] : point.labels)
              if (point_label == label)
                sets.insert(sets.end(), wsets_for_label.begin(), wsets_for_label.end());
          const std::string origin = wp + (grid.name.empty() ? "" : " in grid '" + grid.name + "'");
          if (!id_origin.emplace(point.id, origin).second) {
            cfg_.fail(wp + ".name", "point '" + point.id + "' is produced twice (" + id_origin[point.id] +
                                        " and " + origin + "); give the grids' values distinct labels");
          }
          resolve(point, sets);
          point.index = spec.points.size();
          spec.points.push_back(std::move(point));
          std::size_t a = grid.axes.size();
          while (a > 0 && ++pick[a - 1] == grid.axes[a - 1].values.size())
            pick[--a] = 0;
          if (a == 0) break;
        }
      }
    }
    return spec;
  }

 private:
  // Resolves the point's configuration exactly as `numagpu run` will; a problem with one of the spec's
  // overrides is reported where the spec wrote it.
  void resolve(SweepPoint& point, const std::vector<Override>& sets) {
    for (const Override& o : sets)
      point.overrides.push_back(o.text);
    for (const std::string& e : extra_)
      point.overrides.push_back(e);
    RunOptions options;
    if (!point.config_file.empty()) options.config_file = point.config_file;
    if (!point.workload_file.empty()) options.workload_file = point.workload_file;
    options.sets = point.overrides;
    try {
      const Config resolved = load_configuration(options);
      const std::vector<InputFile> inputs = input_files(resolved);
      for (const InputFile& f : inputs) {  // before the system is derived, which reads them
        std::error_code ec;
        if (!fs::is_regular_file(f.path, ec))  // a FIFO would block, and differ on every read
          resolved.fail(f.key, f.path + ": not a regular file (a sweep point's identity hashes its inputs)");
      }
      (void)to_system_spec(resolved);
      point.config_hash = as_run_configuration(resolved).hash();  // the hash the point's stats.json names
      std::string lines;
      for (const InputFile& f : inputs) {
        const std::string path = fs::absolute(f.path).lexically_normal().string();
        point.input_files.push_back(path);
        lines += digest(resolved, f.key, path) + "\n";
      }
      point.inputs_hash = combine_digests(lines);
    } catch (const ConfigError& e) {
      for (const Override& o : sets) {
        if (e.where().file == "--set " + o.text) {
          throw ConfigError(
              o.where, o.path,
              "point '" + point.id + "': " + (e.key().empty() ? "" : e.key() + ": ") + e.message());
        }
      }
      throw;
    }
  }

  // file_digest of an input file, read once per spec however many points read it.
  std::string digest(const Config& resolved, const std::string& key, const std::string& path) {
    const auto known = digests_.find(path);
    if (known != digests_.end()) return known->second;
    const std::optional<std::string> d = file_digest(path);
    if (!d) resolved.fail(key, path + ": cannot read");
    return digests_[path] = *d;
  }

  const Config& cfg_;
  std::vector<std::string> extra_;
  std::map<std::string, std::string> digests_;  // input file -> its digest
};

}  // namespace

const config::Schema& sweep_schema() {
  static const Schema schema = make_schema();
  return schema;
}

const SweepPoint* SweepSpec::find(const std::string& id) const {
  for (const SweepPoint& p : points)
    if (p.id == id) return &p;
  return nullptr;
}

std::optional<std::string> inputs_hash(const std::vector<std::string>& files) {
  std::string lines;
  for (const std::string& f : files) {
    const std::optional<std::string> d = file_digest(f);
    if (!d) return std::nullopt;
    lines += *d + "\n";
  }
  return combine_digests(lines);
}

SweepSpec load_sweep_spec(const std::string& file, const std::vector<std::string>& extra_sets) {
  const Config cfg = config::load(sweep_schema(), {{file, std::nullopt}}, {});
  return Loader(cfg, extra_sets).load(file);
}

}  // namespace numagpu
