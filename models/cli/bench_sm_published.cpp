#include "cli/bench_sm_published.hpp"

#include "cli/embedded_configs.hpp"
#include "config/schema.hpp"

namespace numagpu {

namespace {

config::Schema make_schema() {
  config::Schema s;
  config::Schema& v = s.list("values", "Published values, one per benchmark of numagpu bench-sm").element();
  v.string("benchmark", "The bench-sm benchmark it is compared with").required();
  v.real("value", "The published value, in `unit`").required();
  v.string("unit", "Its unit, as bench-sm reports the benchmark").required();
  v.string("source", "The paper or document").required();
  v.string("where", "Table, figure or section").required();
  v.string("page", "Page(s); empty where the document has none").default_value("");
  v.choice("kind", {"measured", "vendor", "accelsim_config", "derived"},
           "measured: a microbenchmark measurement; vendor: NVIDIA's documentation; accelsim_config: a value "
           "of Accel-Sim's tuned configuration, not a measurement; derived: computed from published values "
           "(the note says how)")
      .required();
  v.string("note", "What the value is, and what it is not").default_value("");
  return s;
}

}  // namespace

std::map<std::string, PublishedValue> load_published(const config::Layer& layer,
                                                     const std::set<std::string>& known) {
  static const config::Schema schema = make_schema();
  const config::Config c = config::load(schema, {layer}, {});
  std::map<std::string, PublishedValue> out;
  for (std::size_t i = 0; i < c.list_size("values"); ++i) {
    const std::string at = "values." + std::to_string(i) + ".";
    const std::string id = c.string(at + "benchmark");
    if (!known.count(id))
      c.fail(at + "benchmark", "'" + id + "' is not a bench-sm benchmark (docs/microbenchmarks.md)");
    PublishedValue p{c.real(at + "value"),   c.string(at + "unit"), c.string(at + "source"),
                     c.string(at + "where"), c.string(at + "page"), c.string(at + "kind"),
                     c.string(at + "note")};
    if (!out.emplace(id, p).second) c.fail(at + "benchmark", "'" + id + "' has a published value already");
  }
  return out;
}

config::Layer builtin_published_layer() {
  return {"<built-in configs/published/volta_microbenchmarks.yaml>", std::string(embedded::kVoltaPublished)};
}

}  // namespace numagpu
