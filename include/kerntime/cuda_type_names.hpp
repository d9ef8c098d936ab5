// SPDX-License-Identifier: Apache-2.0
// Type-axis names (type_axes.hpp) of CUDA's reduced-precision types: half, bfloat16, fp8_e4m3,
// fp8_e5m2. Include it where a benchmark sweeps them; it brings CUDA's cuda_fp16.h,
// cuda_bf16.h and cuda_fp8.h, which also compile in plain C++.
#pragma once

#include <string>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <kerntime/type_axes.hpp>

KERNTIME_TYPE_NAME(__half, "half");
KERNTIME_TYPE_NAME(__nv_bfloat16, "bfloat16");
KERNTIME_TYPE_NAME(__nv_fp8_e4m3, "fp8_e4m3");
KERNTIME_TYPE_NAME(__nv_fp8_e5m2, "fp8_e5m2");
