// A minimal VCD writer for the C++ reference model's outputs, on the same time base and with the same signal
// names as the Verilated RTL's trace (VerilatedDut), so a mismatch can be inspected side by side.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace numagpu::tb {

class RefVcd {
 public:
  // Declares a signal; call before the first sample(). Returns its handle.
  std::size_t add(const std::string& name, unsigned width) {
    signals_.push_back({name, width, id_for(signals_.size()), ~std::uint64_t{0}});
    return signals_.size() - 1;
  }

  bool open(const std::string& path) {
    out_.open(path);
    if (!out_) return false;
    out_ << "$timescale 1ps $end\n$scope module ref $end\n";
    for (const Signal& s : signals_)
      out_ << "$var wire " << s.width << ' ' << s.id << ' ' << s.name << " $end\n";
    out_ << "$upscope $end\n$enddefinitions $end\n";
    return true;
  }

  bool is_open() const { return out_.is_open(); }

  void close() {
    if (out_.is_open()) out_.close();
  }

  // Records the value of a signal at `time`; only changes are written.
  void set(std::uint64_t time, std::size_t handle, std::uint64_t value) {
    Signal& s = signals_[handle];
    if (!out_.is_open() || s.last == value) return;
    if (time != time_ || !time_written_) {
      out_ << '#' << time << '\n';
      time_ = time;
      time_written_ = true;
    }
    s.last = value;
    if (s.width == 1) {
      out_ << (value & 1) << s.id << '\n';
      return;
    }
    out_ << 'b';
    for (unsigned bit = s.width; bit-- > 0;)
      out_ << ((value >> bit) & 1);
    out_ << ' ' << s.id << '\n';
  }

 private:
  struct Signal {
    std::string name;
    unsigned width;
    std::string id;
    std::uint64_t last;
  };

  // VCD identifiers: printable characters '!' .. '~', base 94.
  static std::string id_for(std::size_t n) {
    std::string id;
    do {
      id.push_back(static_cast<char>('!' + n % 94));
      n /= 94;
    } while (n != 0);
    return id;
  }

  std::vector<Signal> signals_;
  std::ofstream out_;
  std::uint64_t time_ = 0;
  bool time_written_ = false;
};

}  // namespace numagpu::tb
