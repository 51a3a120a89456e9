// Generated text: the YAML dump (verbatim and round trip) and the Markdown reference.
#include <gtest/gtest.h>

#include "test_util.hpp"

namespace numagpu::config::testing {
namespace {

TEST(DumpYaml, CommentsEveryLeafInDeclarationOrder) {
  const Config cfg = load(small_schema(), {small_layer()}, {});
  EXPECT_EQ(cfg.dump_yaml(),
            "cache:  # L2 cache\n"
            "  ways: 16  # Associativity\n"
            "  hit_ns: 2.5  # Hit latency [ns]\n"
            "  policy: lru  # Replacement policy\n"
            "trace: false  # Write a trace\n"
            "kernels:  # Kernels in order\n"
            "  - name: \"k0\"  # Kernel name\n"
            "    ctas: 4  # CTAs\n");
}

TEST(DumpYaml, EmptyListAndIntegralReal) {
  const Config cfg = load(test_schema(), {base_layer()}, {"gpu.clock_ghz=2"});
  EXPECT_EQ(cfg.dump_yaml(),
            "name: \"baseline\"  # Name of the run\n"
            "gpu:  # GPU topology\n"
            "  sockets: 4  # Number of GPU sockets\n"
            "  clock_ghz: 2.0  # SM clock [GHz]\n"
            "  coherent: true  # Hardware coherence between sockets\n"
            "l2:  # Shared L2 cache\n"
            "  size_bytes: 4096  # Capacity of one slice [B]\n"
            "  ways: 16  # Associativity\n"
            "  organization: memside  # How slices are shared\n"
            "workload:  # What to run\n"
            "  kernels: []  # Kernels in launch order\n");
}

TEST(DumpYaml, RoundTripGivesAnIdenticalConfig) {
  const Config original = load(test_schema(),
                               {base_layer(), text_layer("w.yaml",
                                                         "name: \"it's: #1 \\\"quoted\\\" \\u00e9\\ttab\"\n"
                                                         "gpu: {clock_ghz: 0.1e1, sockets: 0x2}\n"
                                                         "workload:\n"
                                                         "  kernels:\n"
                                                         "    - {name: 'null', ctas: 7}\n"
                                                         "    - {name: 'true'}\n"
                                                         "    - {name: ''}\n")},
                               {"l2.organization=numa_aware"});
  const Config reloaded = load(test_schema(), {text_layer("dump.yaml", original.dump_yaml())}, {});
  EXPECT_EQ(reloaded.resolved(), original.resolved());
  EXPECT_EQ(reloaded.hash(), original.hash());
  EXPECT_EQ(reloaded.string("name"), "it's: #1 \"quoted\" \xc3\xa9\ttab");
  EXPECT_EQ(reloaded.string("workload.kernels.0.name"), "null");
}

TEST(DumpYaml, RoundTripOfChoicesThatLookLikeKeywords) {
  Schema s;
  s.choice("mode", {"on", "off", "null", "a b"}, "Mode").default_value("on");
  for (const char* value : {"on", "off", "null", "a b"}) {
    const Config original = load(s, {}, {std::string("mode='") + value + "'"});
    const Config reloaded = load(s, {text_layer("dump.yaml", original.dump_yaml())}, {});
    EXPECT_EQ(reloaded.string("mode"), value);
  }
}

TEST(DumpYaml, EmptySchema) {
  EXPECT_EQ(Config().dump_yaml(), "{}\n");
  EXPECT_EQ(load(Schema(), {Layer{"e.yaml", Config().dump_yaml()}}, {}).resolved(), nlohmann::json::object());
}

TEST(MarkdownReference, SmallSchema) {
  EXPECT_EQ(small_schema().markdown_reference(),
            "# Configuration reference\n"
            "\n"
            "## Top level\n"
            "\n"
            "| Key | Type | Default | Allowed | Unit | Description |\n"
            "| --- | --- | --- | --- | --- | --- |\n"
            "| `trace` | boolean | `false` | `true`, `false` |  | Write a trace |\n"
            "| `kernels` | list of maps | *required* | 1 to 8 items |  | Kernels in order |\n"
            "\n"
            "## `cache`\n"
            "\n"
            "L2 cache\n"
            "\n"
            "| Key | Type | Default | Allowed | Unit | Description |\n"
            "| --- | --- | --- | --- | --- | --- |\n"
            "| `cache.ways` | integer | `16` | [1, 32] |  | Associativity |\n"
            "| `cache.hit_ns` | real | `2.5` | >= 0.0 | ns | Hit latency |\n"
            "| `cache.policy` | choice | `lru` | `lru`, `random` |  | Replacement policy |\n"
            "\n"
            "## `kernels[]`\n"
            "\n"
            "Kernels in order\n"
            "\n"
            "| Key | Type | Default | Allowed | Unit | Description |\n"
            "| --- | --- | --- | --- | --- | --- |\n"
            "| `kernels[].name` | string | *required* |  |  | Kernel name |\n"
            "| `kernels[].ctas` | integer | `1` |  |  | CTAs |\n");
}

TEST(MarkdownReference, NestedListPathsAndEscaping) {
  Schema s;
  Schema& kernel = s.section("workload", "").list("kernels", "").element();
  kernel.string("name", "Name | label").default_value("k");
  kernel.integer("ctas", "CTAs").max(64).default_value(1);
  EXPECT_EQ(s.markdown_reference(),
            "# Configuration reference\n"
            "\n"
            "## `workload`\n"
            "\n"
            "| Key | Type | Default | Allowed | Unit | Description |\n"
            "| --- | --- | --- | --- | --- | --- |\n"
            "| `workload.kernels` | list of maps | `[]` |  |  |  |\n"
            "\n"
            "## `workload.kernels[]`\n"
            "\n"
            "| Key | Type | Default | Allowed | Unit | Description |\n"
            "| --- | --- | --- | --- | --- | --- |\n"
            "| `workload.kernels[].name` | string | `\"k\"` |  |  | Name \\| label |\n"
            "| `workload.kernels[].ctas` | integer | `1` | <= 64 |  | CTAs |\n");
}

TEST(MarkdownReference, RejectsAnInvalidSchema) {
  Schema s;
  s.integer("x", "");
  EXPECT_THROW(s.markdown_reference(), std::logic_error);
}

}  // namespace
}  // namespace numagpu::config::testing
