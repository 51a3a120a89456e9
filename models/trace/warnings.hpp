// The warnings a reader collects: what it accepted from a trace but ignored or repaired. Readers never print;
// the caller decides (the simulator prints them before the run, tests compare them).
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace numagpu::trace {

class Warnings {
 public:
  void add(std::string message) { messages_.push_back(std::move(message)); }

  // Records `message` the first time `key` is seen only: a quirk repeated on every instruction (an odd
  // address mask, say) is reported once per reader, not a million times.
  void add_once(std::string_view key, std::string message) {
    if (keys_.emplace(key).second) add(std::move(message));
  }

  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::vector<std::string> messages_;
  std::unordered_set<std::string> keys_;
};

}  // namespace numagpu::trace
