// A fixture of scripts/check_layers.py's own test: a bottom folder including the one above it.
#pragma once
#include "high/high.hpp"
