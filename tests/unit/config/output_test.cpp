// Generated text: the YAML dump (verbatim and round trip) and the Markdown reference.
#include <gtest/gtest.h>

#include "config/emit_yaml.hpp"
#include "test_util.hpp"

namespace numagpu::config::testing {
namespace {

// emit_yaml: strings double-quoted with everything outside printable ASCII escaped, by the shortest of
// \xHH (up to U+00FF), \uHHHH (up to U+FFFF) and \UHHHHHHHH; '"' and '\' by a backslash. By hand:
// "a\"b" -> "a\"b"; "k\u0041" as typed (backslash, u, 0041) -> "k\\u0041"; newline -> \x0a; NUL -> \x00;
// DEL -> \x7f; U+00E9 (C3 A9) -> \xe9; U+2028 (E2 80 A8) -> \u2028; U+FFFF, a noncharacter (EF BF BF), ->
// \uffff; U+1F600 (F0 9F 98 80) -> \U0001f600. Keys that are identifiers are plain, "null" is quoted.
TEST(EmitYaml, EveryStringIsQuotedAndEscaped) {
  nlohmann::ordered_json doc = {
      {"workload",
       nlohmann::ordered_json{
           {"name", "a\"b"},
           {"kernels",
            nlohmann::ordered_json::array(
                {nlohmann::ordered_json{{"name", "k\\u0041"}, {"trace", "k.ngt"}},
                 nlohmann::ordered_json{{"name", std::string("\n\0\x7f", 3)}, {"ctas", 4}},
                 nlohmann::ordered_json{{"name", "\xc3\xa9\xe2\x80\xa8\xef\xbf\xbf\xf0\x9f\x98\x80"}}})},
           {"null", nlohmann::ordered_json::array()}}}};
  EXPECT_EQ(emit_yaml(doc),
            "workload:\n"
            "  name: \"a\\\"b\"\n"
            "  kernels:\n"
            "    - name: \"k\\\\u0041\"\n"
            "      trace: \"k.ngt\"\n"
            "    - name: \"\\x0a\\x00\\x7f\"\n"
            "      ctas: 4\n"
            "    - name: \"\\xe9\\u2028\\uffff\\U0001f600\"\n"
            "  \"null\": []\n");
}

// A string that is not UTF-8 cannot be YAML text: refused, never written changed.
TEST(EmitYaml, InvalidUtf8IsRefused) {
  for (const std::string& bad : {std::string("a\xff"), std::string("\xc3"), std::string("\xc0\x80"),
                                 std::string("\xed\xa0\x80"), std::string("\xf4\x90\x80\x80")}) {
    EXPECT_THROW(yaml_double_quoted(bad), std::runtime_error) << bad;
  }
  EXPECT_EQ(yaml_double_quoted(""), "\"\"");
}

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
