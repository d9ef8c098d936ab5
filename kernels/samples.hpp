// SPDX-License-Identifier: Apache-2.0
// Every sample kernel's launcher: small, readable CUDA kernels to time with kerntime. Link the
// CMake target kerntime::samples; each launcher enqueues on the given stream and returns at once.
#pragma once

#include "kernels/device_copy.hpp"
#include "kernels/reduce_sum.hpp"
#include "kernels/saxpy.hpp"
#include "kernels/segment_sort.hpp"
#include "kernels/sgemm.hpp"
#include "kernels/spin.hpp"
#include "kernels/transpose.hpp"
#include "kernels/vector_add.hpp"
