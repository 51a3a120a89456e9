// config/keys.hpp: one declaration list gives the schema (defaults from the fields' initialisers) and reads
// a loaded configuration back into the same fields.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/keys.hpp"

namespace numagpu::config {
namespace {

enum class Mode { kSlow, kFast };

struct Item {
  std::string name;
  unsigned weight = 3;
  template <class Keys>
  void keys(Keys& k) {
    k.string("name", name, "Item name").required();
    k.integer("weight", weight, "Item weight").range(1, 10);
  }
};

struct Toy {
  std::uint64_t size_bytes = 4096;
  Mode mode = Mode::kFast;
  bool check = true;
  double ratio = 0.5;
  std::vector<Item> items;
  unsigned nested = 7;

  template <class Keys>
  void keys(Keys& k) {
    Keys& top = k.section("toy", "A toy section");
    top.integer("size_bytes", size_bytes, "Size").range(128, 1 << 20).unit("B");
    top.choice("mode", mode, {{"slow", Mode::kSlow}, {"fast", Mode::kFast}}, "Mode");
    top.boolean("check", check, "Check");
    top.real("ratio", ratio, "Ratio").range(0.0, 1.0);
    top.list("items", items, "Items").items(0, 4);
    // Declaring a section again extends it (the L2 does this for its organization keys).
    k.section("toy", "").integer("nested", nested, "Declared in a second pass").range(0, 100);
  }
};

Schema toy_schema() {
  Schema schema;
  SchemaKeys keys(schema);
  Toy defaults;
  defaults.keys(keys);
  return schema;
}

Toy read(const std::string& yaml) {
  const Schema schema = toy_schema();
  const Config cfg = load(schema, {{"toy.yaml", yaml}}, {});
  Toy toy;
  toy.size_bytes = 1;  // overwritten: reading fills every declared field
  toy.mode = Mode::kSlow;
  ReadKeys keys(cfg, "");
  toy.keys(keys);
  return toy;
}

TEST(Keys, DefaultsAreTheFieldInitialisers) {
  const Toy t = read("{}");
  EXPECT_EQ(t.size_bytes, 4096u);
  EXPECT_EQ(t.mode, Mode::kFast);
  EXPECT_TRUE(t.check);
  EXPECT_DOUBLE_EQ(t.ratio, 0.5);
  EXPECT_TRUE(t.items.empty());
  EXPECT_EQ(t.nested, 7u);
  // The reference shows the same defaults: `fast` (the name of Mode::kFast) and 4096.
  const std::string md = toy_schema().markdown_reference();
  EXPECT_NE(md.find("`toy.mode`"), std::string::npos);
  EXPECT_NE(md.find("`fast`"), std::string::npos);
  EXPECT_NE(md.find("4096"), std::string::npos);
  EXPECT_NE(md.find("`toy.nested`"), std::string::npos);
}

TEST(Keys, ReadingFillsFieldsListsAndChoices) {
  const Toy t = read(
      "toy:\n  size_bytes: 256\n  mode: slow\n  check: false\n  ratio: 0.25\n"
      "  nested: 9\n  items:\n    - name: a\n    - name: b\n      weight: 5\n");
  EXPECT_EQ(t.size_bytes, 256u);
  EXPECT_EQ(t.mode, Mode::kSlow);
  EXPECT_FALSE(t.check);
  EXPECT_DOUBLE_EQ(t.ratio, 0.25);
  EXPECT_EQ(t.nested, 9u);
  ASSERT_EQ(t.items.size(), 2u);
  EXPECT_EQ(t.items[0].name, "a");
  EXPECT_EQ(t.items[0].weight, 3u);  // the element's initialiser
  EXPECT_EQ(t.items[1].name, "b");
  EXPECT_EQ(t.items[1].weight, 5u);
}

TEST(Keys, BoundsUnitsAndRequiredReachTheSchema) {
  // size_bytes' range, the item's required name and the list's item bound are enforced by the loader.
  EXPECT_THROW(read("toy:\n  size_bytes: 64\n"), ConfigError);
  EXPECT_THROW(read("toy:\n  items:\n    - weight: 2\n"), ConfigError);
  EXPECT_THROW(read("toy:\n  items: [{name: a}, {name: b}, {name: c}, {name: d}, {name: e}]\n"), ConfigError);
  EXPECT_THROW(read("toy:\n  mode: medium\n"), ConfigError);
  const std::string md = toy_schema().markdown_reference();
  EXPECT_NE(md.find("| B |"), std::string::npos) << md;
}

}  // namespace
}  // namespace numagpu::config
