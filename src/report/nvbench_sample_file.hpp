// SPDX-License-Identifier: Apache-2.0
// One NVBench `--jsonbin` sample file: where NVBench versions wrote it, whether it may be read
// (file_in_folder.hpp), and its little-endian float32 seconds as nanoseconds. The NVBench JSON
// reader (nvbench_json_parse.cpp) decides what a missing or refused file means for the report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <kerntime/report_interop.hpp>

namespace kerntime::report {

/// What a summary says of its sample file.
struct NvbenchSampleFileRequest {
  std::string name;              ///< as the summary's "filename" gives it
  std::string summary_path;      ///< the summary's place in the JSON, for messages
  std::uint64_t count = 0;       ///< float32 samples, the summary's "size"
  std::uint64_t bytes_left = 0;  ///< of the sample bytes one NVBench JSON may read in all
};

/// What read_nvbench_sample_file() found.
struct NvbenchSampleFile {
  enum class Status {
    missing,  // in none of the places NVBench writes it
    refused,  // `why` says why; nothing was read
    changed,  // found, but reading it failed (it changed since); `why` is the reader's message
    read,     // `samples_ns` holds its `count` samples
  };
  Status status = Status::missing;
  std::string why;
  std::vector<double> samples_ns;
  std::uint64_t bytes_read = 0;
};

/// Looks for `request.name` in the JSON's folder (options.nvbench_directory), the working
/// directory, and `<nvbench_json_name>-bin/` in the JSON's folder, in that order; a refusal ends
/// the search (the name itself is bad), only a missing file moves on. A file that would pass
/// `bytes_left` is refused. One that is read must be whole: its size must be `count` float32
/// values and each a finite time >= 0 s, else kerntime::Error names the file. `source` names
/// the JSON in messages.
NvbenchSampleFile read_nvbench_sample_file(const ReportReadOptions& options,
                                           const std::string& source,
                                           const NvbenchSampleFileRequest& request);

}  // namespace kerntime::report
