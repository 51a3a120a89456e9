// Internal representation of a Schema, shared by the loader, the resolver and the writers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/schema.hpp"

namespace numagpu::config::detail {

enum class Kind : int { kInteger, kReal, kBoolean, kString, kChoice, kSection, kList };

bool is_leaf(Kind kind);
const char* kind_name(Kind kind);  // "integer", "real", ... as shown in the reference

struct Entry {
  Kind kind;
  std::string key;
  std::string doc;
  std::string unit;
  std::optional<int64_t> int_min, int_max;
  std::optional<double> real_min, real_max;
  std::vector<std::string> choices;
  nlohmann::json fallback;  // the default value; null when there is none
  bool required = false;
  std::size_t min_items = 0;
  std::optional<std::size_t> max_items;
  Schema children;  // members of a section, or the element map of a list
};

struct SchemaAccess {
  static const std::vector<std::unique_ptr<Entry>>& entries(const Schema& schema) { return schema.entries_; }
};

inline const std::vector<std::unique_ptr<Entry>>& entries(const Schema& schema) {
  return SchemaAccess::entries(schema);
}

const Entry* find_entry(const Schema& schema, const std::string& key);
std::vector<std::string> key_names(const Schema& schema);

// Throws std::logic_error for a schema that cannot describe a valid configuration (a leaf with no
// default and not required, a default outside its bounds, ...). `is_root` reserves "include".
void check_schema(const Schema& schema, bool is_root = true, const std::string& prefix = "");

// Text used for bounds in messages and in the reference: "[1, 8]", ">= 1", "<= 8" or "" if unbounded.
std::string bounds_text(const Entry& leaf);
std::string item_count_text(const Entry& list);  // "1 to 4 items", "at least 1 item", ...

}  // namespace numagpu::config::detail
