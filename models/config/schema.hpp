// Declarative description of every configuration key: its type, default, bounds, unit and doc.
//
// A Schema is a map section. Keys are added with builder calls that return a small handle whose
// setters chain; handles stay valid as long as the Schema they came from:
//
//   Schema schema;
//   Schema& l2 = schema.section("l2", "Shared L2 cache");
//   l2.integer("size_bytes", "Capacity of one slice").min(1024).unit("B").required();
//   l2.integer("ways", "Associativity").range(1, 32).default_value(16);
//   l2.choice("organization", {"memside", "static", "shared", "numa_aware"}, "Slice sharing policy")
//       .default_value("memside");
//   Schema& kernel = schema.section("workload", "What to run")
//                        .list("kernels", "Kernels, launched in order").items(1, 64).element();
//   kernel.string("name", "Kernel name").required();
//
// Rules (violations are programming errors and throw std::logic_error):
//  - keys match [A-Za-z_][A-Za-z0-9_-]* and are unique within their section; calling section()
//    again with an existing section's key returns that section, so several models can add keys
//    to a shared section;
//  - every leaf gets exactly one of default_value() or required(); defaults must satisfy the
//    bounds / allowed values (checked by load() and markdown_reference());
//  - a list holds maps described by element(); its default is the empty list, so a list with
//    min_items > 0 must be written by the user;
//  - the top-level key "include" is reserved for file includes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace numagpu::config {

class Schema;

namespace detail {
enum class Kind : int;
struct Entry;
struct SchemaAccess;
}  // namespace detail

class IntegerSpec {
 public:
  IntegerSpec& min(int64_t lowest);                     // inclusive
  IntegerSpec& max(int64_t highest);                    // inclusive
  IntegerSpec& range(int64_t lowest, int64_t highest);  // inclusive on both ends
  IntegerSpec& unit(std::string unit);
  IntegerSpec& default_value(int64_t value);
  IntegerSpec& required();

 private:
  friend class Schema;
  explicit IntegerSpec(detail::Entry* entry) : entry_(entry) {}
  detail::Entry* entry_;
};

class RealSpec {
 public:
  RealSpec& min(double lowest);
  RealSpec& max(double highest);
  RealSpec& range(double lowest, double highest);
  RealSpec& unit(std::string unit);
  RealSpec& default_value(double value);
  RealSpec& required();

 private:
  friend class Schema;
  explicit RealSpec(detail::Entry* entry) : entry_(entry) {}
  detail::Entry* entry_;
};

class BooleanSpec {
 public:
  BooleanSpec& default_value(bool value);
  // Rejects default_value("false") or default_value(1) at compile time instead of converting.
  template <typename T>
  BooleanSpec& default_value(T) = delete;
  BooleanSpec& required();

 private:
  friend class Schema;
  explicit BooleanSpec(detail::Entry* entry) : entry_(entry) {}
  detail::Entry* entry_;
};

class StringSpec {
 public:
  StringSpec& default_value(std::string value);
  StringSpec& required();

 private:
  friend class Schema;
  explicit StringSpec(detail::Entry* entry) : entry_(entry) {}
  detail::Entry* entry_;
};

class ChoiceSpec {
 public:
  ChoiceSpec& default_value(std::string value);  // must be one of the allowed values
  ChoiceSpec& required();

 private:
  friend class Schema;
  explicit ChoiceSpec(detail::Entry* entry) : entry_(entry) {}
  detail::Entry* entry_;
};

class ListSpec {
 public:
  ListSpec& min_items(std::size_t count);
  ListSpec& max_items(std::size_t count);
  ListSpec& items(std::size_t min_count, std::size_t max_count);
  Schema& element();  // the map every list item must match

 private:
  friend class Schema;
  explicit ListSpec(detail::Entry* entry) : entry_(entry) {}
  detail::Entry* entry_;
};

class Schema {
 public:
  Schema();
  ~Schema();
  Schema(const Schema& other);  // deep copy
  Schema& operator=(const Schema& other);
  Schema(Schema&& other) noexcept;
  Schema& operator=(Schema&& other) noexcept;

  IntegerSpec integer(const std::string& key, std::string doc);
  RealSpec real(const std::string& key, std::string doc);
  BooleanSpec boolean(const std::string& key, std::string doc);
  StringSpec string(const std::string& key, std::string doc);
  ChoiceSpec choice(const std::string& key, std::vector<std::string> values, std::string doc);
  Schema& section(const std::string& key, std::string doc);
  ListSpec list(const std::string& key, std::string doc);

  bool empty() const { return entries_.empty(); }

  // Markdown reference: one table per section (declaration order) with the columns key (full
  // dotted path, list items as `workload.kernels[].ctas`), type, default, allowed values, unit
  // and description.
  std::string markdown_reference() const;

 private:
  friend struct detail::SchemaAccess;
  detail::Entry& add(const std::string& key, std::string doc, detail::Kind kind);

  // unique_ptr keeps entries at a fixed address, so handles and section references stay valid
  // while more keys are added.
  std::vector<std::unique_ptr<detail::Entry>> entries_;
};

}  // namespace numagpu::config
