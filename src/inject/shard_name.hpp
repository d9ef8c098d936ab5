// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>

namespace kerntime::inject {

/// The rank a launcher gave this process (RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK,
/// in that order), or "" when none did. `lookup` is std::getenv outside tests.
std::string launcher_rank(const std::function<const char*(const char*)>& lookup);

/// How a process is named in the merged report's warnings and its file: "HOST pid N", with
/// " rank R" when a launcher gave one.
std::string process_label();

/// This process's report file in KERNTIME_RUN_DIR: "HOST.[rankR.]pidN.json", unique per process
/// on a machine, so ranks never share a file (NVIDIA/TensorRT-LLM#13536).
std::string shard_file_name();

/// `directory`/`file_name`, or, when a report of that name is there already, the first of
/// "STEM.2.json", "STEM.3.json", ... that is not: the same pid writes a second report when the
/// process replaced itself by exec and the new program started CUDA too, and a later process may
/// get a pid again. `exists` is a stat() outside tests.
std::string unused_report_path(const std::string& directory, const std::string& file_name,
                               const std::function<bool(const std::string&)>& exists);

}  // namespace kerntime::inject
