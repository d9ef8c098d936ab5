// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>

#include "cupti/cupti_api.hpp"
#include "trace/raw_records.hpp"

namespace kerntime::cupti {

/// What decode_buffer reads in full.
enum class Decode {
  everything,
  /// Kernels and scope tags in full; API calls, copies, memsets and synchronizations only
  /// counted (RecordBatch::counted_*): for a reader that has no room left to keep them.
  counts,
};

/// Reads every record of one completed CUPTI buffer into `batch` (appending), stepping only
/// with cuptiActivityGetNextRecord (record sizes differ between CUPTI versions). One switch on
/// the kind, one view per case; kinds kerntime does not read are counted. Returns false when the
/// walk stopped on an error other than the end of the buffer (counted as a truncated buffer).
bool decode_buffer(CuptiApi& api, std::uint8_t* buffer, std::size_t valid_bytes,
                   trace::RecordBatch& batch, Decode decode = Decode::everything);

}  // namespace kerntime::cupti
