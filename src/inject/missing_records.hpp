// SPDX-License-Identifier: Apache-2.0
// Whether the kernel records cover the launches. CUPTI hands activity records to one client per
// process (the last to register its buffers), so a profiler the program starts (torch.profiler)
// takes every record from then on, and kerntime would report less than ran without knowing it.
// The launch callback counts launches all along; after the last flush, fewer kernel records
// than launches means records went elsewhere.
#pragma once

#include <cstdint>
#include <string>

namespace kerntime::inject {

struct RecordAccount {
  std::uint64_t launches = 0;        ///< kernel and graph launches that ran (not captured)
  std::uint64_t kernel_records = 0;  ///< kernel records CUPTI delivered to kerntime
  std::uint64_t dropped_records = 0;
  bool crashed = false;  ///< the process is ending on a fatal signal: work may be unfinished
};

/// The warning when the records do not cover the launches (a graph launch runs one kernel or
/// more, every other launch exactly one), naming `other_client` as the likely taker; "" when
/// they do. Only meaningful after a synchronized, forced flush.
std::string missing_records_warning(const RecordAccount& account, const std::string& other_client);

}  // namespace kerntime::inject
