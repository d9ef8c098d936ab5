// SPDX-License-Identifier: Apache-2.0
// kerntime: measure CUDA kernels as GPU time, not enqueue time.
#pragma once

#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/session.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/version.hpp>
