// The Config object: defaults, typed accessors, locations, fail(), hash; and schema misuse.
#include <gtest/gtest.h>

#include <limits>
#include <type_traits>

#include "test_util.hpp"

namespace numagpu::config::testing {
namespace {

using nlohmann::json;

// ---- defaults and values ------------------------------------------------------------------------

TEST(Defaults, EveryKeyIsFilledIn) {
  const Config cfg = load(test_schema(), {base_layer()}, {});
  const json expected = {
      {"name", "baseline"},
      {"gpu", {{"sockets", 4}, {"clock_ghz", 1.5}, {"coherent", true}}},
      {"l2", {{"size_bytes", 4096}, {"ways", 16}, {"organization", "memside"}}},
      {"workload", {{"kernels", json::array()}}},
  };
  EXPECT_EQ(cfg.resolved(), expected);
  EXPECT_TRUE(cfg.resolved()["gpu"]["sockets"].is_number_integer());
  EXPECT_TRUE(cfg.resolved()["gpu"]["clock_ghz"].is_number_float());
}

TEST(Defaults, ListItemsGetTheirDefaults) {
  const Config cfg =
      load(test_schema(), {base_layer(), text_layer("w.yaml", "workload:\n  kernels: [{name: a}]\n")}, {});
  EXPECT_EQ(cfg.resolved()["workload"]["kernels"], json::parse(R"([{"name": "a", "ctas": 1}])"));
}

TEST(Values, IntegerSyntax) {
  Schema s;
  s.integer("v", "Any integer").default_value(0);
  auto value = [&](const std::string& text) {
    return load(s, {text_layer("v.yaml", "v: " + text + "\n")}, {}).integer("v");
  };
  EXPECT_EQ(value("+5"), 5);
  EXPECT_EQ(value("-12"), -12);
  EXPECT_EQ(value("010"), 10);  // YAML 1.2: no implicit octal
  EXPECT_EQ(value("0x1f"), 31);
  EXPECT_EQ(value("0X1F"), 31);
  EXPECT_EQ(value("-0x10"), -16);
  EXPECT_EQ(value("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(value("-9223372036854775808"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(load_error({text_layer("v.yaml", "v: 0x\n")}, {}, s),
            "v.yaml:1:4: v: expected an integer, got '0x'");
}

TEST(Values, RealSyntax) {
  Schema s;
  s.real("v", "Any real").default_value(0.0);
  auto value = [&](const std::string& text) {
    return load(s, {text_layer("v.yaml", "v: " + text + "\n")}, {}).real("v");
  };
  EXPECT_DOUBLE_EQ(value("2"), 2.0);
  EXPECT_DOUBLE_EQ(value(".5"), 0.5);
  EXPECT_DOUBLE_EQ(value("+1e-3"), 0.001);
  EXPECT_DOUBLE_EQ(value("-1.5E+2"), -150.0);
  EXPECT_EQ(load_error({text_layer("v.yaml", "v: 0x10\n")}, {}, s),
            "v.yaml:1:4: v: expected a number, got '0x10'");
}

TEST(Values, BooleanSpellings) {
  Schema s;
  s.boolean("b", "A flag").default_value(false);
  auto value = [&](const std::string& text) {
    return load(s, {text_layer("b.yaml", "b: " + text + "\n")}, {}).boolean("b");
  };
  EXPECT_TRUE(value("true"));
  EXPECT_TRUE(value("True"));
  EXPECT_TRUE(value("TRUE"));
  EXPECT_FALSE(value("false"));
  EXPECT_FALSE(value("FALSE"));
  EXPECT_EQ(load_error({text_layer("b.yaml", "b: 'true'\n")}, {}, s),
            "b.yaml:1:4: b: expected true or false, got a quoted string 'true'");
}

TEST(Values, StringTakesAnyScalar) {
  const auto name = [](const std::string& text) {
    return load(test_schema(), {base_layer(), text_layer("n.yaml", "name: " + text + "\n")}, {})
        .string("name");
  };
  EXPECT_EQ(name("42"), "42");
  EXPECT_EQ(name("\"\""), "");
  EXPECT_EQ(name("'null'"), "null");
}

// ---- accessors ----------------------------------------------------------------------------------

TEST(Accessors, ReadEveryType) {
  const Config cfg =
      load(test_schema(),
           {base_layer(), text_layer("w.yaml", "workload:\n  kernels: [{name: a, ctas: 9}]\n")}, {});
  EXPECT_EQ(cfg.integer("l2.ways"), 16);
  EXPECT_DOUBLE_EQ(cfg.real("gpu.clock_ghz"), 1.5);
  EXPECT_TRUE(cfg.boolean("gpu.coherent"));
  EXPECT_EQ(cfg.string("name"), "baseline");
  EXPECT_EQ(cfg.string("l2.organization"), "memside");
  EXPECT_EQ(cfg.list_size("workload.kernels"), 1u);
  EXPECT_EQ(cfg.integer("workload.kernels.0.ctas"), 9);
}

// A logic_error, not a ConfigError: a ConfigError would blame the user's file for a bug in the program.
TEST(Accessors, MisuseIsALogicError) {
  const Config cfg =
      load(test_schema(), {base_layer(), text_layer("w.yaml", "workload:\n  kernels: [{name: a}]\n")}, {});
  EXPECT_THROW(cfg.integer("gpu.nope"), std::logic_error);
  EXPECT_THROW(cfg.integer("gpu.clock_ghz"), std::logic_error);
  EXPECT_THROW(cfg.integer("gpu"), std::logic_error);
  EXPECT_THROW(cfg.real("gpu.sockets"), std::logic_error);
  EXPECT_THROW(cfg.boolean("name"), std::logic_error);
  EXPECT_THROW(cfg.string("gpu.sockets"), std::logic_error);
  EXPECT_THROW(cfg.list_size("gpu"), std::logic_error);
  EXPECT_THROW(cfg.integer("workload.kernels.1.ctas"), std::logic_error);
  EXPECT_THROW(cfg.integer("workload.kernels.x.ctas"), std::logic_error);
  EXPECT_THROW(cfg.integer(""), std::logic_error);
  EXPECT_THROW(cfg.location("gpu.nope"), std::logic_error);
  EXPECT_THROW(cfg.fail("gpu.nope", "x"), std::logic_error);
}

TEST(Accessors, LogicErrorMessagesNameTheProblem) {
  const Config cfg = load(test_schema(), {base_layer()}, {});
  try {
    cfg.integer("gpu.clock_ghz");
    FAIL() << "no exception";
  } catch (const std::logic_error& error) {
    EXPECT_STREQ(error.what(), "Config::integer(\"gpu.clock_ghz\"): the value is a real, not an integer");
  }
  try {
    cfg.real("gpu.clocks");
    FAIL() << "no exception";
  } catch (const std::logic_error& error) {
    EXPECT_STREQ(error.what(), "Config::real(\"gpu.clocks\"): no such configuration key");
  }
}

// ---- locations and fail() -----------------------------------------------------------------------

TEST(Locations, FileDefaultAndOverride) {
  const Config cfg =
      load(test_schema(),
           {base_layer(), text_layer("a.yaml", "gpu:\n  sockets: 2\nworkload:\n  kernels:\n    - name: k\n")},
           {"l2.ways=8"});
  EXPECT_EQ(cfg.location("gpu.sockets"), (Location{"a.yaml", 2, 12}));
  EXPECT_EQ(cfg.location("l2.size_bytes"), (Location{"base.yaml", 2, 15}));
  EXPECT_EQ(cfg.location("gpu.coherent"), (Location{"<default>", 0, 0}));
  EXPECT_EQ(cfg.location("l2.ways"), (Location{"--set l2.ways=8", 0, 0}));
  EXPECT_EQ(cfg.location("workload.kernels.0"), (Location{"a.yaml", 5, 7}));
  EXPECT_EQ(cfg.location("workload.kernels.0.ctas"), (Location{"<default>", 0, 0}));
  EXPECT_EQ(cfg.location("gpu"), (Location{"a.yaml", 2, 3}));
}

TEST(Locations, UnwrittenSectionAndListAreDefaults) {
  const Config cfg = load(test_schema(), {base_layer()}, {});
  EXPECT_EQ(cfg.location("gpu"), (Location{"<default>", 0, 0}));
  EXPECT_EQ(cfg.location("workload.kernels"), (Location{"<default>", 0, 0}));
}

TEST(Fail, PointsAtTheWinningValue) {
  const Config cfg =
      load(test_schema(), {base_layer(), text_layer("a.yaml", "gpu:\n  sockets: 3\n")}, {"l2.ways=12"});
  auto message = [&](const std::string& path) {
    try {
      cfg.fail(path, "must be a power of two");
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("<no error>");
  };
  EXPECT_EQ(message("gpu.sockets"), "a.yaml:2:12: gpu.sockets: must be a power of two");
  EXPECT_EQ(message("l2.ways"), "--set l2.ways=12: l2.ways: must be a power of two");
  EXPECT_EQ(message("l2.organization"), "<default>: l2.organization: must be a power of two");
}

// A key missing from a list item the user wrote is reported at the item: its own location is only the
// default's, which would not say which file (or which item) lacks it.
TEST(Fail, MissingKeyOfAWrittenListItemPointsAtTheItem) {
  const Config cfg =
      load(test_schema(), {base_layer(), text_layer("a.yaml", "workload:\n  kernels:\n    - name: k\n")}, {});
  try {
    cfg.fail("workload.kernels.0.ctas", "missing");
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(), "a.yaml:3:7: workload.kernels.0.ctas: missing");
  }
}

// ---- hash ---------------------------------------------------------------------------------------

TEST(Hash, IsFnv1aOfTheCompactJson) {
  const Config cfg = load(small_schema(), {small_layer()}, {});
  EXPECT_EQ(
      cfg.resolved().dump(),
      R"({"cache":{"hit_ns":2.5,"policy":"lru","ways":16},"kernels":[{"ctas":4,"name":"k0"}],"trace":false})");
  EXPECT_EQ(cfg.hash(), "0c75404aa1ec6234");  // computed independently from the JSON text above
}

TEST(Hash, ChangesWithAValue) {
  const Config cfg = load(small_schema(), {small_layer()}, {"cache.ways=8"});
  EXPECT_EQ(cfg.hash(), "fac365435241885d");
}

TEST(Hash, IndependentOfHowTheValuesWereWritten) {
  const Config a = load(small_schema(), {small_layer()}, {});
  const Config b = load(small_schema(),
                        {text_layer("x.yaml", "cache: {ways: 4}\nkernels: [{name: zz}]\n"),
                         text_layer("y.yaml", "kernels:\n  - ctas: 0x4\n    name: k0\n")},
                        {"cache.ways=16"});
  EXPECT_EQ(a.hash(), b.hash());
}

TEST(Hash, EmptyConfig) {
  const Config empty;
  EXPECT_EQ(empty.resolved(), json::object());
  EXPECT_EQ(empty.hash().size(), 16u);
}

// ---- schema misuse ------------------------------------------------------------------------------

template <typename Spec, typename Arg, typename = void>
struct accepts_default : std::false_type {};
template <typename Spec, typename Arg>
struct accepts_default<Spec, Arg,
                       std::void_t<decltype(std::declval<Spec&>().default_value(std::declval<Arg>()))>>
    : std::true_type {};

TEST(SchemaMisuse, BooleanDefaultMustBeABool) {
  static_assert(accepts_default<BooleanSpec, bool>::value);
  static_assert(!accepts_default<BooleanSpec, const char*>::value);
  static_assert(!accepts_default<BooleanSpec, int>::value);
}

std::string schema_error(const Schema& schema) {
  try {
    load(schema, {}, {});
  } catch (const std::logic_error& error) {
    return error.what();
  }
  return "<no error>";
}

TEST(SchemaMisuse, BadKeyNames) {
  Schema s;
  EXPECT_THROW(s.integer("a.b", ""), std::logic_error);
  EXPECT_THROW(s.integer("7up", ""), std::logic_error);
  EXPECT_THROW(s.integer("", ""), std::logic_error);
  EXPECT_NO_THROW(s.integer("l2-ways_x9", "").default_value(1));
}

TEST(SchemaMisuse, DuplicateKey) {
  Schema s;
  s.integer("ways", "").default_value(1);
  EXPECT_THROW(s.integer("ways", ""), std::logic_error);
  EXPECT_THROW(s.section("ways", ""), std::logic_error);
}

TEST(SchemaMisuse, SectionCanBeReopened) {
  Schema s;
  s.section("l2", "").integer("ways", "").default_value(1);
  s.section("l2", "L2").integer("sets", "").default_value(2);
  const Config cfg = load(s, {}, {});
  EXPECT_EQ(cfg.integer("l2.ways"), 1);
  EXPECT_EQ(cfg.integer("l2.sets"), 2);
}

TEST(SchemaMisuse, LeafNeedsDefaultOrRequired) {
  Schema s;
  s.section("l2", "").integer("ways", "Associativity");
  EXPECT_EQ(schema_error(s), "configuration schema: 'l2.ways' needs default_value() or required()");
}

TEST(SchemaMisuse, DefaultAndRequired) {
  Schema s;
  s.integer("ways", "").default_value(1).required();
  EXPECT_EQ(schema_error(s), "configuration schema: 'ways' has both a default and required()");
}

TEST(SchemaMisuse, DefaultOutsideRange) {
  Schema s;
  s.integer("ways", "").default_value(0).range(1, 8);
  EXPECT_EQ(schema_error(s), "configuration schema: 'ways' has default 0 outside [1, 8]");
}

TEST(SchemaMisuse, ChoiceDefaultNotAllowed) {
  Schema s;
  s.choice("policy", {"lru", "fifo"}, "").default_value("random");
  EXPECT_EQ(schema_error(s),
            "configuration schema: 'policy' has default 'random' that is not an allowed value");
}

TEST(SchemaMisuse, IncludeIsReserved) {
  Schema s;
  s.string("include", "").default_value("");
  EXPECT_EQ(schema_error(s), "configuration schema: 'include' is reserved for file includes");
}

TEST(SchemaMisuse, ListBoundsInverted) {
  Schema s;
  s.list("items", "").items(3, 2).element().integer("x", "").default_value(1);
  EXPECT_EQ(schema_error(s), "configuration schema: 'items' has min_items > max_items");
}

TEST(SchemaMisuse, ListElementIsChecked) {
  Schema s;
  s.list("items", "").element().integer("x", "");
  EXPECT_EQ(schema_error(s), "configuration schema: 'items[].x' needs default_value() or required()");
}

TEST(SchemaCopy, IsDeep) {
  Schema a;
  a.integer("x", "").default_value(1);
  Schema b = a;
  b.integer("y", "").default_value(2);
  EXPECT_EQ(load(a, {}, {}).resolved(), json::parse(R"({"x": 1})"));
  EXPECT_EQ(load(b, {}, {}).resolved(), json::parse(R"({"x": 1, "y": 2})"));
}

}  // namespace
}  // namespace numagpu::config::testing
