#include <cmath>
#include <set>
#include <stdexcept>

#include "schema_detail.hpp"
#include "text.hpp"

namespace numagpu::config {
namespace detail {
namespace {

[[noreturn]] void schema_error(const std::string& path, const std::string& problem) {
  throw std::logic_error("configuration schema: '" + path + "' " + problem);
}

bool is_key_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_key_char(char c) {
  return is_key_start(c) || (c >= '0' && c <= '9') || c == '-';
}

// Dots would break dotted paths and a leading digit would be mistaken for a list index.
void check_key_name(const std::string& key) {
  bool valid = !key.empty() && is_key_start(key[0]);
  for (char c : key) {
    valid = valid && is_key_char(c);
  }
  if (!valid) schema_error(key, "is not a valid key (expected [A-Za-z_][A-Za-z0-9_-]*)");
}

void check_default_integer(const Entry& leaf, const std::string& path) {
  const int64_t value = leaf.fallback.get<int64_t>();
  if ((leaf.int_min && value < *leaf.int_min) || (leaf.int_max && value > *leaf.int_max)) {
    schema_error(path, "has default " + std::to_string(value) + " outside " + bounds_text(leaf));
  }
}

void check_default_real(const Entry& leaf, const std::string& path) {
  const double value = leaf.fallback.get<double>();
  if ((leaf.real_min && value < *leaf.real_min) || (leaf.real_max && value > *leaf.real_max)) {
    schema_error(path, "has default " + format_real(value) + " outside " + bounds_text(leaf));
  }
}

void check_choices(const Entry& leaf, const std::string& path) {
  if (leaf.choices.empty()) schema_error(path, "is a choice without allowed values");
  const std::set<std::string> unique(leaf.choices.begin(), leaf.choices.end());
  if (unique.size() != leaf.choices.size()) schema_error(path, "lists an allowed value twice");
  if (!leaf.fallback.is_null() && unique.count(leaf.fallback.get<std::string>()) == 0) {
    schema_error(path, "has default '" + leaf.fallback.get<std::string>() + "' that is not an allowed value");
  }
}

void check_leaf(const Entry& leaf, const std::string& path) {
  const bool has_default = !leaf.fallback.is_null();
  if (has_default == leaf.required) {
    schema_error(path,
                 has_default ? "has both a default and required()" : "needs default_value() or required()");
  }
  if (leaf.int_min && leaf.int_max && *leaf.int_min > *leaf.int_max) schema_error(path, "has min > max");
  if (leaf.real_min && leaf.real_max && *leaf.real_min > *leaf.real_max) schema_error(path, "has min > max");
  if (leaf.kind == Kind::kChoice) check_choices(leaf, path);
  if (!has_default) return;
  if (leaf.kind == Kind::kInteger) check_default_integer(leaf, path);
  if (leaf.kind == Kind::kReal) check_default_real(leaf, path);
}

void check_list(const Entry& list, const std::string& path) {
  if (list.max_items && list.min_items > *list.max_items) schema_error(path, "has min_items > max_items");
  check_schema(list.children, false, path + "[]");
}

void check_finite(double value, const std::string& path) {
  if (!std::isfinite(value)) schema_error(path, "has a bound or default that is not finite");
}

}  // namespace

bool is_leaf(Kind kind) {
  return kind != Kind::kSection && kind != Kind::kList;
}

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kInteger:
      return "integer";
    case Kind::kReal:
      return "real";
    case Kind::kBoolean:
      return "boolean";
    case Kind::kString:
      return "string";
    case Kind::kChoice:
      return "choice";
    case Kind::kSection:
      return "section";
    case Kind::kList:
      return "list";
  }
  return "?";
}

const Entry* find_entry(const Schema& schema, const std::string& key) {
  for (const auto& entry : entries(schema)) {
    if (entry->key == key) return entry.get();
  }
  return nullptr;
}

std::vector<std::string> key_names(const Schema& schema) {
  std::vector<std::string> names;
  for (const auto& entry : entries(schema)) {
    names.push_back(entry->key);
  }
  return names;
}

void check_schema(const Schema& schema, bool is_root, const std::string& prefix) {
  for (const auto& entry : entries(schema)) {
    const std::string path = child_path(prefix, entry->key);
    if (is_root && entry->key == "include") schema_error(path, "is reserved for file includes");
    if (is_leaf(entry->kind)) {
      check_leaf(*entry, path);
    } else if (entry->kind == Kind::kList) {
      check_list(*entry, path);
    } else {
      check_schema(entry->children, false, path);
    }
  }
}

std::string bounds_text(const Entry& leaf) {
  auto show = [&](bool lower) -> std::string {
    if (leaf.kind == Kind::kInteger) return std::to_string(lower ? *leaf.int_min : *leaf.int_max);
    return format_real(lower ? *leaf.real_min : *leaf.real_max);
  };
  const bool has_min = leaf.kind == Kind::kInteger ? leaf.int_min.has_value() : leaf.real_min.has_value();
  const bool has_max = leaf.kind == Kind::kInteger ? leaf.int_max.has_value() : leaf.real_max.has_value();
  if (has_min && has_max) return "[" + show(true) + ", " + show(false) + "]";
  if (has_min) return ">= " + show(true);
  if (has_max) return "<= " + show(false);
  return "";
}

std::string item_count_text(const Entry& list) {
  if (list.max_items && list.min_items > 0) {
    return std::to_string(list.min_items) + " to " + count_of(*list.max_items, "item");
  }
  if (list.max_items) return "at most " + count_of(*list.max_items, "item");
  if (list.min_items > 0) return "at least " + count_of(list.min_items, "item");
  return "";
}

}  // namespace detail

using detail::Entry;
using detail::Kind;

// ---- leaf and list handles -------------------------------------------------------------------

IntegerSpec& IntegerSpec::min(int64_t lowest) {
  entry_->int_min = lowest;
  return *this;
}
IntegerSpec& IntegerSpec::max(int64_t highest) {
  entry_->int_max = highest;
  return *this;
}
IntegerSpec& IntegerSpec::range(int64_t lowest, int64_t highest) {
  return min(lowest).max(highest);
}
IntegerSpec& IntegerSpec::unit(std::string unit) {
  entry_->unit = std::move(unit);
  return *this;
}
IntegerSpec& IntegerSpec::default_value(int64_t value) {
  entry_->fallback = value;
  return *this;
}
IntegerSpec& IntegerSpec::required() {
  entry_->required = true;
  return *this;
}

RealSpec& RealSpec::min(double lowest) {
  detail::check_finite(lowest, entry_->key);
  entry_->real_min = lowest;
  return *this;
}
RealSpec& RealSpec::max(double highest) {
  detail::check_finite(highest, entry_->key);
  entry_->real_max = highest;
  return *this;
}
RealSpec& RealSpec::range(double lowest, double highest) {
  return min(lowest).max(highest);
}
RealSpec& RealSpec::unit(std::string unit) {
  entry_->unit = std::move(unit);
  return *this;
}
RealSpec& RealSpec::default_value(double value) {
  detail::check_finite(value, entry_->key);
  entry_->fallback = value;
  return *this;
}
RealSpec& RealSpec::required() {
  entry_->required = true;
  return *this;
}

BooleanSpec& BooleanSpec::default_value(bool value) {
  entry_->fallback = value;
  return *this;
}
BooleanSpec& BooleanSpec::required() {
  entry_->required = true;
  return *this;
}

StringSpec& StringSpec::default_value(std::string value) {
  entry_->fallback = std::move(value);
  return *this;
}
StringSpec& StringSpec::required() {
  entry_->required = true;
  return *this;
}

ChoiceSpec& ChoiceSpec::default_value(std::string value) {
  entry_->fallback = std::move(value);
  return *this;
}
ChoiceSpec& ChoiceSpec::required() {
  entry_->required = true;
  return *this;
}

ListSpec& ListSpec::min_items(std::size_t count) {
  entry_->min_items = count;
  return *this;
}
ListSpec& ListSpec::max_items(std::size_t count) {
  entry_->max_items = count;
  return *this;
}
ListSpec& ListSpec::items(std::size_t min_count, std::size_t max_count) {
  return min_items(min_count).max_items(max_count);
}
Schema& ListSpec::element() {
  return entry_->children;
}

// ---- Schema ----------------------------------------------------------------------------------

Schema::Schema() = default;
Schema::~Schema() = default;
Schema::Schema(Schema&& other) noexcept = default;
Schema& Schema::operator=(Schema&& other) noexcept = default;

Schema::Schema(const Schema& other) {
  entries_.reserve(other.entries_.size());
  for (const auto& entry : other.entries_) {
    entries_.push_back(std::make_unique<Entry>(*entry));
  }
}

Schema& Schema::operator=(const Schema& other) {
  if (this != &other) *this = Schema(other);
  return *this;
}

Entry& Schema::add(const std::string& key, std::string doc, Kind kind) {
  detail::check_key_name(key);
  if (detail::find_entry(*this, key) != nullptr) {
    detail::schema_error(key, "is declared twice in the same section");
  }
  auto entry = std::make_unique<Entry>();
  entry->kind = kind;
  entry->key = key;
  entry->doc = std::move(doc);
  entries_.push_back(std::move(entry));
  return *entries_.back();
}

IntegerSpec Schema::integer(const std::string& key, std::string doc) {
  return IntegerSpec(&add(key, std::move(doc), Kind::kInteger));
}

RealSpec Schema::real(const std::string& key, std::string doc) {
  return RealSpec(&add(key, std::move(doc), Kind::kReal));
}

BooleanSpec Schema::boolean(const std::string& key, std::string doc) {
  return BooleanSpec(&add(key, std::move(doc), Kind::kBoolean));
}

StringSpec Schema::string(const std::string& key, std::string doc) {
  return StringSpec(&add(key, std::move(doc), Kind::kString));
}

ChoiceSpec Schema::choice(const std::string& key, std::vector<std::string> values, std::string doc) {
  Entry& entry = add(key, std::move(doc), Kind::kChoice);
  entry.choices = std::move(values);
  return ChoiceSpec(&entry);
}

Schema& Schema::section(const std::string& key, std::string doc) {
  // Re-opening an existing section lets independent models contribute keys to it.
  for (auto& entry : entries_) {
    if (entry->key != key) continue;
    if (entry->kind != Kind::kSection) detail::schema_error(key, "is declared twice in the same section");
    if (entry->doc.empty()) entry->doc = std::move(doc);
    return entry->children;
  }
  return add(key, std::move(doc), Kind::kSection).children;
}

ListSpec Schema::list(const std::string& key, std::string doc) {
  return ListSpec(&add(key, std::move(doc), Kind::kList));
}

}  // namespace numagpu::config
