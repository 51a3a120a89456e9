#include "power/activity.hpp"

#include "common/printable.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <iterator>

namespace numagpu::power {

using nlohmann::json;

namespace {

std::size_t index_of(const Instance& inst, std::string_view counter) {
  const auto it = std::find(inst.counters.begin(), inst.counters.end(), counter);
  return static_cast<std::size_t>(it - inst.counters.begin());
}

// Counter and field names come from the file: shown printable, the message stays one line.
[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ActivityError(printable(where + ": " + what));
}

const json& member(const json& obj, const std::string& where, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end()) fail(where, std::string("missing field '") + key + "'");
  return *it;
}

std::uint64_t count(const json& j, const std::string& where) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(j.get<std::int64_t>());
  fail(where, "expected a non-negative integer");
}

std::uint64_t count_field(const json& obj, const std::string& where, const char* key) {
  return count(member(obj, where, key), where + "." + key);
}

std::string string_field(const json& obj, const std::string& where, const char* key) {
  const json& j = member(obj, where, key);
  if (!j.is_string()) fail(where + "." + key, "expected a string");
  return j.get<std::string>();
}

bool known_kind(const std::string& kind) {
  return std::any_of(std::begin(kKinds), std::end(kKinds), [&](const char* k) { return kind == k; });
}

}  // namespace

std::uint64_t Instance::total(std::string_view counter) const {
  const std::size_t i = index_of(*this, counter);
  return i < totals.size() ? totals[i] : 0;
}

std::uint64_t Instance::in_window(std::size_t window, std::string_view counter) const {
  const std::size_t i = index_of(*this, counter);
  return i < counters.size() ? windows.at(window).at(i) : 0;
}

json activity_to_json(const Activity& a) {
  json windows = json::array();
  for (const Window& w : a.windows)
    windows.push_back({{"start_cycle", w.start_cycle}, {"cycles", w.cycles}});
  json instances = json::array();
  for (const Instance& inst : a.instances) {
    json counters = json::object();
    json series = json::object();
    for (std::size_t c = 0; c < inst.counters.size(); ++c) {
      counters[inst.counters[c]] = inst.totals[c];
      if (a.windows.empty()) continue;
      json values = json::array();
      for (const auto& w : inst.windows)
        values.push_back(w[c]);
      series[inst.counters[c]] = std::move(values);
    }
    json j = {{"name", inst.name},
              {"kind", inst.kind},
              {"socket", inst.socket < 0 ? json(nullptr) : json(inst.socket)},
              {"properties", inst.properties},
              {"counters", std::move(counters)}};
    if (!a.windows.empty()) j["windows"] = std::move(series);
    instances.push_back(std::move(j));
  }
  json doc{{"schema", "numagpu-activity"},
           {"schema_version", kActivitySchemaVersion},
           {"generator", {{"name", "numagpu"}, {"version", a.generator_version}}},
           {"machine_hash", a.machine_hash},
           {"clock_mhz", a.clock_mhz},
           {"duration_cycles", a.duration_cycles},
           {"sim_cycles", a.sim_cycles},
           {"window_cycles", a.window_cycles},
           {"sockets", a.sockets},
           {"windows", std::move(windows)},
           {"instances", std::move(instances)},
           {"config", a.config}};
  if (a.duration_ps) doc["duration_ps"] = a.duration_ps;
  if (!a.clock_steps.empty()) {
    json steps = json::array();
    for (const Activity::ClockStep& s : a.clock_steps)
      steps.push_back({{"cycle", s.cycle}, {"mhz", s.mhz}});
    doc["clock_steps"] = std::move(steps);
  }
  return doc;
}

double seconds_of_cycles(const Activity& a, std::uint64_t from, std::uint64_t cycles) {
  if (a.clock_steps.empty()) return double(cycles) / (double(a.clock_mhz) * 1e6);
  // Each step's share of [from, to) at its own clock.
  const std::uint64_t to = from + cycles;
  double s = 0;
  for (std::size_t k = 0; k < a.clock_steps.size(); ++k) {
    const std::uint64_t begin = std::max(from, a.clock_steps[k].cycle);
    const std::uint64_t end = k + 1 < a.clock_steps.size() ? std::min(to, a.clock_steps[k + 1].cycle) : to;
    if (end > begin) s += double(end - begin) / (double(a.clock_steps[k].mhz) * 1e6);
  }
  return s;
}

Activity activity_from_json(const json& doc) {
  if (!doc.is_object()) fail("(document)", "expected a JSON object");
  const json& schema = member(doc, "(document)", "schema");
  if (schema != "numagpu-activity") fail("schema", "expected \"numagpu-activity\"");
  const std::uint64_t version = count_field(doc, "(document)", "schema_version");
  if (version != kActivitySchemaVersion) {
    fail("schema_version", std::to_string(version) + " is not supported (this numagpu reads version " +
                               std::to_string(kActivitySchemaVersion) + ")");
  }
  Activity a;
  const json& generator = member(doc, "(document)", "generator");
  if (!generator.is_object()) fail("generator", "expected an object");
  a.generator_version = string_field(generator, "generator", "version");
  a.machine_hash = string_field(doc, "(document)", "machine_hash");
  a.clock_mhz = count_field(doc, "(document)", "clock_mhz");
  if (a.clock_mhz == 0) fail("clock_mhz", "expected a positive integer");
  a.duration_cycles = count_field(doc, "(document)", "duration_cycles");
  if (doc.contains("duration_ps")) {
    a.duration_ps = count_field(doc, "(document)", "duration_ps");
    if (a.duration_ps == 0) fail("duration_ps", "expected a positive integer");
  }
  if (const auto it = doc.find("clock_steps"); it != doc.end()) {
    if (!it->is_array() || it->empty()) fail("clock_steps", "expected a non-empty array");
    for (std::size_t k = 0; k < it->size(); ++k) {
      const std::string at = "clock_steps[" + std::to_string(k) + "]";
      const json& step = (*it)[k];
      if (!step.is_object()) fail(at, "expected an object with cycle and mhz");
      Activity::ClockStep s{count_field(step, at, "cycle"), count_field(step, at, "mhz")};
      if (s.mhz == 0) fail(at + ".mhz", "expected a positive integer");
      if (k == 0 ? s.cycle != 0 : s.cycle <= a.clock_steps.back().cycle)
        fail(at + ".cycle", k == 0 ? "expected 0 (the first clock is from the start)"
                                   : "expected a cycle after the previous step's");
      a.clock_steps.push_back(s);
    }
  }
  a.sim_cycles = count_field(doc, "(document)", "sim_cycles");
  a.window_cycles = count_field(doc, "(document)", "window_cycles");
  const std::uint64_t sockets = count_field(doc, "(document)", "sockets");
  if (sockets > 1024) fail("sockets", "expected at most 1024");
  a.sockets = static_cast<unsigned>(sockets);
  if (const auto it = doc.find("config"); it != doc.end()) {
    if (!it->is_object()) fail("config", "expected an object");
    a.config = *it;
  }

  const json& windows = member(doc, "(document)", "windows");
  if (!windows.is_array()) fail("windows", "expected an array");
  std::uint64_t next = 0;
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const std::string where = "windows[" + std::to_string(w) + "]";
    if (!windows[w].is_object()) fail(where, "expected an object");
    Window win{count_field(windows[w], where, "start_cycle"), count_field(windows[w], where, "cycles")};
    if (win.start_cycle != next)
      fail(where + ".start_cycle", "expected " + std::to_string(next) + " (windows are consecutive from 0)");
    next = win.start_cycle + win.cycles;
    a.windows.push_back(win);
  }
  if (!a.windows.empty() && next != a.duration_cycles)
    fail("windows", "end at cycle " + std::to_string(next) + ", not at duration_cycles " +
                        std::to_string(a.duration_cycles));

  const json& instances = member(doc, "(document)", "instances");
  if (!instances.is_array()) fail("instances", "expected an array");
  for (std::size_t i = 0; i < instances.size(); ++i) {
    const std::string where = "instances[" + std::to_string(i) + "]";
    const json& j = instances[i];
    if (!j.is_object()) fail(where, "expected an object");
    Instance inst;
    inst.name = string_field(j, where, "name");
    inst.kind = string_field(j, where, "kind");
    if (!known_kind(inst.kind)) fail(where + ".kind", "unknown component kind '" + inst.kind + "'");
    const json& socket = member(j, where, "socket");
    if (!socket.is_null()) {
      const std::uint64_t s = count(socket, where + ".socket");
      if (s >= a.sockets)
        fail(where + ".socket", "expected null or a socket below " + std::to_string(a.sockets));
      inst.socket = static_cast<int>(s);
    }
    if (const auto it = j.find("properties"); it != j.end()) {
      if (!it->is_object()) fail(where + ".properties", "expected an object");
      inst.properties = *it;
    }
    const json& counters = member(j, where, "counters");
    if (!counters.is_object()) fail(where + ".counters", "expected an object");
    for (const auto& [name, value] : counters.items()) {
      inst.counters.push_back(name);
      inst.totals.push_back(count(value, where + ".counters." + name));
    }
    inst.windows.assign(a.windows.size(), std::vector<std::uint64_t>(inst.counters.size(), 0));
    if (!a.windows.empty()) {
      const json& series = member(j, where, "windows");
      if (!series.is_object()) fail(where + ".windows", "expected an object");
      for (std::size_t c = 0; c < inst.counters.size(); ++c) {
        const std::string at = where + ".windows." + inst.counters[c];
        const auto it = series.find(inst.counters[c]);
        if (it == series.end()) fail(where + ".windows", "missing counter '" + inst.counters[c] + "'");
        if (!it->is_array() || it->size() != a.windows.size())
          fail(at, "expected an array of " + std::to_string(a.windows.size()) + " counts, one per window");
        std::uint64_t sum = 0;
        for (std::size_t w = 0; w < a.windows.size(); ++w) {
          inst.windows[w][c] = count((*it)[w], at + "[" + std::to_string(w) + "]");
          sum += inst.windows[w][c];
        }
        if (sum != inst.totals[c])
          fail(at, "windows add up to " + std::to_string(sum) + ", not to the total " +
                       std::to_string(inst.totals[c]));
      }
    }
    a.instances.push_back(std::move(inst));
  }
  return a;
}

std::string machine_hash(const json& config_without_energy) {
  const std::string text = config_without_energy.dump(-1, ' ', false, json::error_handler_t::replace);
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char byte : text) {
    hash ^= byte;
    hash *= 0x100000001b3ULL;
  }
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016" PRIx64, hash);
  return digits;
}

}  // namespace numagpu::power
