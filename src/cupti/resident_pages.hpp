// SPDX-License-Identifier: Apache-2.0
// Memory that the program's threads write inside CUDA calls (CUPTI's activity buffers, the
// launch callback's slots) is made resident when it is allocated. Fresh pages from calloc are
// mapped only on their first write, so without this each new 4 KiB page costs a page fault on
// whichever thread writes it first: CUPTI writes a kernel's record on the launching thread, and
// the PyTorch step of the cost target took about 7 such faults a step on its own threads, all
// through a run of a few hundred steps (H100, 2026-12-06: `step_cost.py --threads`, minflt).
#pragma once

#include <cstddef>

namespace kerntime::cupti {

/// Maps every page of `bytes` of zeroed memory at `data` now, so that writing it later takes
/// no page fault; the memory stays zero. A system that refuses leaves the pages to map on
/// first write, as before.
void make_resident(void* data, std::size_t bytes) noexcept;

}  // namespace kerntime::cupti
