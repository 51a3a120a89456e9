// cuda.h: forwards to numagpu's cuda_runtime.h, which declares everything a CUDA program of numagpu can use
// (one coherent header: docs/cuda.md, "Compiling CUDA programs").
#pragma once
#include "cuda_runtime.h"
