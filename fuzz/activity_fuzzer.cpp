// libFuzzer target: a run's activity.json as `numagpu power` and `numagpu export` read it
// (power/activity.hpp), priced with the default energy table (power/power_model.hpp). Any input either parses
// into an activity whose power document holds only finite numbers (no null where a power or an energy
// belongs), or is refused with one line: a JSON parse error, or an ActivityError naming the place; anything
// else (a crash, another exception, a message of several lines or with a control byte, a NaN or an infinity)
// is a finding. scripts/fuzz.sh runs it.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "power/activity.hpp"
#include "power/energy_config.hpp"
#include "power/power_model.hpp"

namespace {

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "numagpu fuzz: activity: %s\n", what.c_str());
  std::abort();
}

// The first number of `j` that is not finite (JSON has none: nlohmann writes NaN and infinity as null), as
// its path; empty when every number is finite.
std::string first_non_finite(const nlohmann::json& j, const std::string& path) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) return path;
  if (j.is_object() || j.is_array()) {
    for (const auto& [key, value] : j.items()) {
      std::string found = first_non_finite(value, path + "/" + key);
      if (!found.empty()) return found;
    }
  }
  return {};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const numagpu::power::EnergyTable table =
      numagpu::power::energy_table(numagpu::config::load(numagpu::power::energy_schema(), {}, {}));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(data, data + size);
  } catch (const nlohmann::json::exception&) {  // a syntax error, or a number too large (out_of_range)
    return 0;  // `numagpu power` reports either as "FILE: not valid JSON (...)", printable, on one line
  }
  numagpu::power::Activity activity;
  try {
    activity = numagpu::power::activity_from_json(doc);
  } catch (const numagpu::power::ActivityError& e) {
    const std::string what = e.what();
    for (char c : what) {
      if (static_cast<unsigned char>(c) < 0x20) finding("an error with a control byte: " + what);
    }
    if (what.empty()) finding("an empty error");
    return 0;
  }
  nlohmann::json power;
  try {
    power = numagpu::power::power_document(activity, table, "fuzz");
  } catch (const std::exception& e) {  // a property of the wrong type: `numagpu power` reports it in one line
    const std::string what = e.what();
    if (what.empty() || what.find('\n') != std::string::npos)
      finding("a pricing error not on one line: " + what);
    return 0;
  }
  const std::string bad = first_non_finite(power, "");
  if (!bad.empty()) finding("power.json has a number that is not finite at " + bad);
  return 0;
}
