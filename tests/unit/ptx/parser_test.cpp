#include <gtest/gtest.h>

#include "ptx_test_support.hpp"
