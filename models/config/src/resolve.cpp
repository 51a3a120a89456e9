#include "resolve.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "schema_detail.hpp"
#include "text.hpp"

namespace numagpu::config::detail {
namespace {

using json = nlohmann::json;

const Location kDefaultLocation{"<default>", 0, 0};

// A suggestion must be close to what was typed: within 2 edits or a third of the key's length,
// and never a complete rewrite (which a distance as large as the key itself would be).
std::string unknown_key_message(const std::string& key, const Schema& section) {
  const std::vector<std::string> names = key_names(section);
  const std::string* best = nullptr;
  std::size_t best_distance = 0;
  for (const std::string& name : names) {
    const std::size_t distance = edit_distance(key, name);
    if (best == nullptr || distance < best_distance) {
      best = &name;
      best_distance = distance;
    }
  }
  const std::string head = "unknown key " + in_quotes(key);
  if (best == nullptr) return head + " (this section has no keys)";
  const std::size_t limit = std::max<std::size_t>(2, key.size() / 3);
  if (best_distance <= limit && best_distance < key.size()) {
    return head + " (did you mean " + in_quotes(*best) + "?)";
  }
  return head + " (expected one of: " + join(names, ", ") + ")";
}

// "0 is out of range [1, 8]"; one-sided bounds read "0 is out of range (must be >= 1)".
std::string out_of_range(const std::string& value, const Entry& leaf) {
  const std::string bounds = bounds_text(leaf);
  if (bounds.front() == '[') return value + " is out of range " + bounds;
  return value + " is out of range (must be " + bounds + ")";
}

bool is_plain_scalar(const RawNode& node) {
  return node.kind == RawNode::Kind::kScalar && !node.quoted;
}

class Resolver {
 public:
  explicit Resolver(Resolved& out) : out_(out) {}

  // `raw` may be null (section not written); `anchor` is where a missing required key is reported.
  json map(const Schema& schema, const RawNode* raw, const std::string& path, const Location& anchor) {
    if (raw != nullptr && raw->kind != RawNode::Kind::kMap) type_error(*raw, path, "a map");
    const Location& here = raw != nullptr ? raw->where : anchor;
    if (raw != nullptr) reject_unknown_keys(schema, *raw, path);
    json tree = json::object();
    for (const auto& entry : entries(schema)) {
      const RawEntry* written = raw != nullptr ? raw->find(entry->key) : nullptr;
      const RawNode* value = written != nullptr ? &written->value : nullptr;
      tree[entry->key] = member(*entry, value, child_path(path, entry->key), here);
    }
    out_.locations[path] = raw != nullptr ? raw->where : kDefaultLocation;
    return tree;
  }

 private:
  json member(const Entry& entry, const RawNode* raw, const std::string& path, const Location& anchor) {
    switch (entry.kind) {
      case Kind::kSection:
        return map(entry.children, raw, path, anchor);
      case Kind::kList:
        return list(entry, raw, path, anchor);
      default:
        return leaf(entry, raw, path, anchor);
    }
  }

  void reject_unknown_keys(const Schema& schema, const RawNode& raw, const std::string& path) {
    for (const RawEntry& written : raw.entries) {
      if (find_entry(schema, written.key) == nullptr) {
        throw ConfigError(written.key_where, child_path(path, written.key),
                          unknown_key_message(written.key, schema));
      }
    }
  }

  json list(const Entry& entry, const RawNode* raw, const std::string& path, const Location& anchor) {
    if (raw == nullptr) {
      // The default is the empty list, so a list that needs items has to be written.
      if (entry.min_items > 0) throw ConfigError(anchor, path, "missing required key");
      out_.locations[path] = kDefaultLocation;
      return json::array();
    }
    if (raw->kind != RawNode::Kind::kList) type_error(*raw, path, "a list");
    const std::size_t count = raw->items.size();
    if (count < entry.min_items || (entry.max_items && count > *entry.max_items)) {
      throw ConfigError(raw->where, path,
                        "expected " + item_count_text(entry) + ", got " + std::to_string(count));
    }
    json items = json::array();
    for (std::size_t i = 0; i < count; ++i) {
      const RawNode& item = raw->items[i];
      items.push_back(map(entry.children, &item, child_path(path, std::to_string(i)), item.where));
    }
    out_.locations[path] = raw->where;
    return items;
  }

  json leaf(const Entry& entry, const RawNode* raw, const std::string& path, const Location& anchor) {
    if (raw == nullptr) {
      if (entry.required) throw ConfigError(anchor, path, "missing required key");
      out_.locations[path] = kDefaultLocation;
      return entry.fallback;
    }
    out_.locations[path] = raw->where;
    switch (entry.kind) {
      case Kind::kInteger:
        return integer(entry, *raw, path);
      case Kind::kReal:
        return real(entry, *raw, path);
      case Kind::kBoolean:
        return boolean(*raw, path);
      case Kind::kString:
        return string(*raw, path);
      default:
        return choice(entry, *raw, path);
    }
  }

  static json integer(const Entry& entry, const RawNode& raw, const std::string& path) {
    if (!is_plain_scalar(raw)) type_error(raw, path, "an integer");
    const IntegerParse parsed = parse_integer(raw.text);
    if (parsed.status == ParseStatus::kOutOfRange) {
      throw ConfigError(raw.where, path, in_quotes(raw.text) + " does not fit in a 64-bit integer");
    }
    if (parsed.status != ParseStatus::kOk) type_error(raw, path, "an integer");
    if ((entry.int_min && parsed.value < *entry.int_min) ||
        (entry.int_max && parsed.value > *entry.int_max)) {
      throw ConfigError(raw.where, path, out_of_range(std::to_string(parsed.value), entry));
    }
    return parsed.value;
  }

  static json real(const Entry& entry, const RawNode& raw, const std::string& path) {
    if (!is_plain_scalar(raw)) type_error(raw, path, "a number");
    const RealParse parsed = parse_real(raw.text);
    if (parsed.status == ParseStatus::kOutOfRange) {
      throw ConfigError(raw.where, path, in_quotes(raw.text) + " is outside the range of a double");
    }
    if (parsed.status != ParseStatus::kOk) type_error(raw, path, "a number");
    if ((entry.real_min && parsed.value < *entry.real_min) ||
        (entry.real_max && parsed.value > *entry.real_max)) {
      throw ConfigError(raw.where, path, out_of_range(format_real(parsed.value), entry));
    }
    return parsed.value;
  }

  // YAML 1.2 core schema booleans only; YAML 1.1's yes/no/on/off are too easy to write by accident.
  static json boolean(const RawNode& raw, const std::string& path) {
    if (is_plain_scalar(raw)) {
      if (raw.text == "true" || raw.text == "True" || raw.text == "TRUE") return true;
      if (raw.text == "false" || raw.text == "False" || raw.text == "FALSE") return false;
    }
    type_error(raw, path, "true or false");
  }

  // Any scalar is text for a string key (name: 42 means "42"); only null and collections are not.
  static json string(const RawNode& raw, const std::string& path) {
    if (raw.kind != RawNode::Kind::kScalar) type_error(raw, path, "a string");
    return raw.text;
  }

  static json choice(const Entry& entry, const RawNode& raw, const std::string& path) {
    if (raw.kind == RawNode::Kind::kScalar) {
      for (const std::string& allowed : entry.choices) {
        if (raw.text == allowed) return allowed;
      }
    }
    const std::string got = raw.kind == RawNode::Kind::kScalar ? in_quotes(raw.text) : describe(raw);
    throw ConfigError(raw.where, path, "expected one of " + join(entry.choices, ", ") + "; got " + got);
  }

  [[noreturn]] static void type_error(const RawNode& raw, const std::string& path,
                                      const std::string& expected) {
    throw ConfigError(raw.where, path, "expected " + expected + ", got " + describe(raw));
  }

  Resolved& out_;
};

}  // namespace

Resolved resolve(const Schema& schema, const RawNode& root) {
  Resolved out;
  out.tree = Resolver(out).map(schema, &root, "", root.where);
  return out;
}

}  // namespace numagpu::config::detail
