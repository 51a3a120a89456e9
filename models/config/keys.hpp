// Binding configuration keys to the fields of plain parameter structs, so that a key is declared once, next
// to the field it fills, with its documentation, bounds, unit and default (the field's in-class initialiser).
//
// A parameter struct lists its keys in a member template:
//
//   struct DramParams {
//     std::uint64_t bandwidth_gbps = 768;
//     template <class Keys> void keys(Keys& k) {
//       k.integer("bandwidth_gbps", bandwidth_gbps, "Peak bandwidth").range(1, 100000).unit("GB/s");
//     }
//   };
//
// and the same list is walked twice: by SchemaKeys, over a default-constructed struct, to declare the schema
// (each key's default is the field's value at that moment), and by ReadKeys, to fill a struct from a loaded
// Config. The struct's header needs nothing from this file (it is a template over Keys), so parameter headers
// stay free of YAML, JSON and SystemC.
//
// What a Keys object offers (both classes below):
//   integer(key, field, doc)            any integral field; default = field
//   real(key, field, doc), boolean(...), string(...)
//   choice(key, field, {{"name", value}, ...}, doc)   an enum (or any comparable) field, by name
//   section(key, doc) -> Keys&          a nested map; declaring the same section again extends it
//   list(key, vector, doc) -> handle    a list of structs that have keys() themselves
// and each declaration's handle chains range(lo, hi), unit(u), required(), items(min, max) as fitting.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "config/config.hpp"
#include "config/schema.hpp"

namespace numagpu::config {

// A name and the value it stands for, for choice keys.
template <class T>
struct Named {
  const char* name;
  T value;
};

// ---- Declaring the schema -------------------------------------------------------------------------------

// A declaration being made: the schema entry's handle plus the default to apply unless required() is
// called. The default is applied when the handle dies (the end of the declaring statement), because the
// schema takes either a default or required(), never both.
template <class Spec, class Value>
class Declaring {
 public:
  Declaring(Spec spec, Value default_value) : spec_(spec), default_(std::move(default_value)) {}
  Declaring(const Declaring&) = delete;
  Declaring& operator=(const Declaring&) = delete;
  ~Declaring() {
    if (!required_) spec_.default_value(default_);
  }
  template <class Lo, class Hi>
  Declaring& range(Lo lo, Hi hi) {
    spec_.range(lo, hi);
    return *this;
  }
  Declaring& unit(const char* u) {
    spec_.unit(u);
    return *this;
  }
  Declaring& required() {
    spec_.required();
    required_ = true;
    return *this;
  }

 private:
  Spec spec_;
  Value default_;
  bool required_ = false;
};

class SchemaKeys {
 public:
  explicit SchemaKeys(Schema& schema) : schema_(schema) {}

  template <class T>
  Declaring<IntegerSpec, std::int64_t> integer(const char* key, const T& field, const char* doc) {
    static_assert(std::is_integral_v<T>, "integer keys bind integral fields");
    return {schema_.integer(key, doc), static_cast<std::int64_t>(field)};
  }
  Declaring<RealSpec, double> real(const char* key, double field, const char* doc) {
    return {schema_.real(key, doc), field};
  }
  Declaring<BooleanSpec, bool> boolean(const char* key, bool field, const char* doc) {
    return {schema_.boolean(key, doc), field};
  }
  Declaring<StringSpec, std::string> string(const char* key, const std::string& field, const char* doc) {
    return {schema_.string(key, doc), field};
  }
  template <class T>
  Declaring<ChoiceSpec, std::string> choice(const char* key, const T& field,
                                            const std::vector<Named<T>>& names, const char* doc) {
    std::vector<std::string> values;
    std::string current;
    for (const Named<T>& n : names) {
      values.emplace_back(n.name);
      if (n.value == field && current.empty()) current = n.name;
    }
    return {schema_.choice(key, std::move(values), doc), current};
  }
  SchemaKeys& section(const char* key, const char* doc) {
    children_.push_back(std::make_unique<SchemaKeys>(schema_.section(key, doc)));
    return *children_.back();
  }
  // The element's keys come from a default-constructed element.
  template <class T>
  ListSpec list(const char* key, const std::vector<T>&, const char* doc) {
    ListSpec list = schema_.list(key, doc);
    SchemaKeys element(list.element());
    T defaults{};
    defaults.keys(element);
    return list;
  }

 private:
  Schema& schema_;
  std::vector<std::unique_ptr<SchemaKeys>> children_;
};

// ---- Reading a loaded configuration ------------------------------------------------------------------

// Bounds, units and required() were checked when the configuration was loaded: reading ignores them.
struct Read {
  template <class Lo, class Hi>
  Read& range(Lo, Hi) {
    return *this;
  }
  Read& unit(const char*) { return *this; }
  Read& required() { return *this; }
  Read& items(std::size_t, std::size_t) { return *this; }
};

class ReadKeys {
 public:
  // `prefix`: the dotted path of the map being read, with its trailing dot ("" at the top).
  ReadKeys(const Config& cfg, std::string prefix) : cfg_(cfg), prefix_(std::move(prefix)) {}

  template <class T>
  Read integer(const char* key, T& field, const char*) {
    field = static_cast<T>(cfg_.integer(prefix_ + key));
    return {};
  }
  Read real(const char* key, double& field, const char*) {
    field = cfg_.real(prefix_ + key);
    return {};
  }
  Read boolean(const char* key, bool& field, const char*) {
    field = cfg_.boolean(prefix_ + key);
    return {};
  }
  Read string(const char* key, std::string& field, const char*) {
    field = cfg_.string(prefix_ + key);
    return {};
  }
  template <class T>
  Read choice(const char* key, T& field, const std::vector<Named<T>>& names, const char*) {
    const std::string value = cfg_.string(prefix_ + key);
    for (const Named<T>& n : names) {
      if (value == n.name) {
        field = n.value;
        return {};
      }
    }
    cfg_.fail(prefix_ + key, "'" + value + "' is not one of the choices");  // the schema already refused it
  }
  ReadKeys& section(const char* key, const char*) {
    children_.push_back(std::make_unique<ReadKeys>(cfg_, prefix_ + key + "."));
    return *children_.back();
  }
  template <class T>
  Read list(const char* key, std::vector<T>& items, const char*) {
    const std::string path = prefix_ + key;
    const std::size_t n = cfg_.list_size(path);
    items.clear();
    items.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      ReadKeys element(cfg_, path + "." + std::to_string(i) + ".");
      T item{};
      item.keys(element);
      items.push_back(std::move(item));
    }
    return {};
  }

  const std::string& prefix() const { return prefix_; }

 private:
  const Config& cfg_;
  std::string prefix_;
  std::vector<std::unique_ptr<ReadKeys>> children_;
};

}  // namespace numagpu::config
