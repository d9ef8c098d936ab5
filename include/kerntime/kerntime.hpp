// SPDX-License-Identifier: Apache-2.0
// kerntime: measure CUDA kernels as GPU time, not enqueue time.
#pragma once

#include <kerntime/benchmark.hpp>
#include <kerntime/compare.hpp>
#include <kerntime/duration.hpp>
#include <kerntime/environment.hpp>
#include <kerntime/error.hpp>
#include <kerntime/export.hpp>
#include <kerntime/format.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/measure.hpp>
#include <kerntime/measurement.hpp>
#include <kerntime/measurement_info.hpp>
#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_interop.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/session.hpp>
#include <kerntime/statistics.hpp>
#include <kerntime/text_sink.hpp>
#include <kerntime/throughput.hpp>
#include <kerntime/trace.hpp>
#include <kerntime/trace_format.hpp>
#include <kerntime/trace_summaries.hpp>
#include <kerntime/tracer.hpp>
#include <kerntime/version.hpp>
