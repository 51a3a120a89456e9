// A YAML document as a plain tree in which every node and key remembers where it was written.
// Layers are merged and overridden in this form, so the resolver can point at the node that won.
#pragma once

#include <string>
#include <vector>

#include "config/error.hpp"

namespace numagpu::config::detail {

struct RawEntry;

struct RawNode {
  enum class Kind { kNull, kScalar, kMap, kList };

  Kind kind = Kind::kNull;
  std::string text;     // scalar text
  bool quoted = false;  // a quoted or block scalar (or !!str): a string, never a number or boolean
  Location where;
  std::vector<RawEntry> entries;  // map entries in document order, keys unique
  std::vector<RawNode> items;     // list items

  RawEntry* find(const std::string& key);
  const RawEntry* find(const std::string& key) const;
  void erase(const std::string& key);
};

struct RawEntry {
  std::string key;
  Location key_where;
  RawNode value;
};

RawNode make_map(Location where);

// Parses one YAML document; an empty text gives a null node. `display_name` becomes the file of
// every Location. Throws ConfigError for syntax errors, duplicate keys, non-scalar keys,
// unsupported tags and several documents in one text. The root may be of any kind.
RawNode parse_yaml(const std::string& text, const std::string& display_name);

// Gives every node of the tree the same location (used for --set values).
void relocate(RawNode& node, const Location& where);

// "'abc'", "a quoted string 'abc'", "a map", "a list" or "null": what a type error says it got.
std::string describe(const RawNode& node);

}  // namespace numagpu::config::detail
