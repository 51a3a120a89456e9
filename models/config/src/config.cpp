#include "config/config.hpp"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <stdexcept>

#include "layers.hpp"
#include "resolve.hpp"
#include "schema_detail.hpp"
#include "text.hpp"

namespace numagpu::config {
namespace {

using json = nlohmann::json;

const char* type_of(const json& value) {
  if (value.is_number_integer()) return "an integer";
  if (value.is_number_float()) return "a real";
  if (value.is_boolean()) return "a boolean";
  if (value.is_string()) return "a string";
  if (value.is_array()) return "a list";
  return "a section";
}

// The item `segment` names in a list of `size` items, if it is a valid index.
std::optional<std::size_t> list_index(const std::string& segment, std::size_t size) {
  if (!detail::is_index(segment)) return std::nullopt;
  std::size_t index = 0;
  const auto result = std::from_chars(segment.data(), segment.data() + segment.size(), index);
  if (result.ec != std::errc() || index >= size) return std::nullopt;
  return index;
}

// Follows a dotted path through the resolved tree; null when it leads nowhere.
const json* find_value(const json& root, const std::string& path) {
  if (path.empty()) return &root;
  const json* node = &root;
  for (const std::string& segment : detail::split_path(path)) {
    if (node->is_object()) {
      const auto it = node->find(segment);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (const auto index = node->is_array() ? list_index(segment, node->size()) : std::nullopt) {
      node = &(*node)[*index];
    } else {
      return nullptr;
    }
  }
  return node;
}

uint64_t fnv1a64(const std::string& bytes) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char byte : bytes) {
    hash ^= byte;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

Config::Config() : resolved_(json::object()), schema_(std::make_shared<const Schema>()) {
  locations_[""] = Location{"<default>", 0, 0};
}

Config::Config(json resolved, std::map<std::string, Location> locations, std::shared_ptr<const Schema> schema)
    : resolved_(std::move(resolved)), locations_(std::move(locations)), schema_(std::move(schema)) {}

std::string Config::hash() const {
  // The replace handler only matters for invalid UTF-8, where plain dump() would throw; for valid
  // text the bytes are exactly those of resolved().dump().
  const std::string text = resolved_.dump(-1, ' ', false, json::error_handler_t::replace);
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016" PRIx64, fnv1a64(text));
  return digits;
}

const json& Config::value_at(const std::string& path, const char* accessor) const {
  const json* value = find_value(resolved_, path);
  if (value == nullptr) {
    throw std::logic_error(std::string("Config::") + accessor + "(\"" + path +
                           "\"): no such configuration key");
  }
  return *value;
}

namespace {

[[noreturn]] void wrong_type(const char* accessor, const std::string& path, const json& value,
                             const char* wanted) {
  throw std::logic_error(std::string("Config::") + accessor + "(\"" + path + "\"): the value is " +
                         type_of(value) + ", not " + wanted);
}

}  // namespace

int64_t Config::integer(const std::string& path) const {
  const json& value = value_at(path, "integer");
  if (!value.is_number_integer()) wrong_type("integer", path, value, "an integer");
  return value.get<int64_t>();
}

double Config::real(const std::string& path) const {
  const json& value = value_at(path, "real");
  if (!value.is_number_float()) wrong_type("real", path, value, "a real");
  return value.get<double>();
}

bool Config::boolean(const std::string& path) const {
  const json& value = value_at(path, "boolean");
  if (!value.is_boolean()) wrong_type("boolean", path, value, "a boolean");
  return value.get<bool>();
}

std::string Config::string(const std::string& path) const {
  const json& value = value_at(path, "string");
  if (!value.is_string()) wrong_type("string", path, value, "a string");
  return value.get<std::string>();
}

std::size_t Config::list_size(const std::string& path) const {
  const json& value = value_at(path, "list_size");
  if (!value.is_array()) wrong_type("list_size", path, value, "a list");
  return value.size();
}

Location Config::location(const std::string& path) const {
  const auto it = locations_.find(path);
  if (it == locations_.end()) {
    throw std::logic_error("Config::location(\"" + path + "\"): no such configuration key");
  }
  return it->second;
}

void Config::fail(const std::string& path, const std::string& message) const {
  Location where = location(path);
  // A key left out of a list item the user wrote (a kernel without its CTAs) has only the default's
  // location: name the item instead, so that the message points at the user's file and line.
  for (std::string prefix = path; where.file == "<default>";) {
    const auto dot = prefix.rfind('.');
    if (dot == std::string::npos) break;
    prefix.erase(dot);
    const std::string last =
        prefix.substr(prefix.rfind('.') == std::string::npos ? 0 : prefix.rfind('.') + 1);
    if (last.empty() || last.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto item = locations_.find(prefix);
    if (item != locations_.end()) where = item->second;
    break;  // the innermost list item decides
  }
  throw ConfigError(where, path, message);
}

Config load(const Schema& schema, const std::vector<Layer>& layers,
            const std::vector<std::string>& set_overrides) {
  detail::check_schema(schema);
  detail::RawNode merged = detail::load_layers(layers);
  for (const std::string& item : set_overrides) {
    detail::apply_override(merged, item);
  }
  detail::Resolved resolved = detail::resolve(schema, merged);
  return Config(std::move(resolved.tree), std::move(resolved.locations),
                std::make_shared<const Schema>(schema));
}

}  // namespace numagpu::config
