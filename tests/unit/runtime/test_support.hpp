// Shared helpers of the runtime policy tests.
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace numagpu::runtime::test {

// Runs f, which must throw std::invalid_argument whose message contains `fragment`.
template <typename F>
void expect_invalid(F&& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no std::invalid_argument; expected one mentioning \"" << fragment << "\"";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
        << "message \"" << e.what() << "\" does not mention \"" << fragment << "\"";
  }
}

}  // namespace numagpu::runtime::test
