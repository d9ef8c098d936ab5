// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>

namespace kerntime::inject {

/// How the names below read the environment: std::getenv outside tests.
using EnvironmentLookup = std::function<const char*(const char*)>;

/// The rank a launcher gave this process (RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK,
/// in that order), or "" when none did. `lookup` is std::getenv outside tests.
std::string launcher_rank(const EnvironmentLookup& lookup);

/// How a process is named in its report's environment (the host name): "HOST pid N", with
/// " rank R" when a launcher gave one, " (PROGRAM)" (its /proc comm) when known, and " run ID"
/// when KERNTIME_RUN_ID is set, so that a process report says which `kerntime run` wrote it.
std::string process_label();
std::string process_label(const EnvironmentLookup& lookup);

/// This process's report file in KERNTIME_RUN_DIR: "HOST.[rankR.]pidN.ID.json", ID being
/// KERNTIME_RUN_ID ("HOST.[rankR.]pidN.json" when it is not set): unique per process on a
/// machine, so ranks never share a file (NVIDIA/TensorRT-LLM#13536), and named for its run, so
/// that `kerntime run` merges only its own processes' reports.
std::string shard_file_name();
std::string shard_file_name(const EnvironmentLookup& lookup);

/// `directory`/`file_name`, or, when a report of that name is there already, the first of
/// "STEM.2.json", "STEM.3.json", ... that is not: the same pid writes a second report when the
/// process replaced itself by exec and the new program started CUDA too, and a later process may
/// get a pid again. `exists` is a stat() outside tests.
std::string unused_report_path(const std::string& directory, const std::string& file_name,
                               const std::function<bool(const std::string&)>& exists);

}  // namespace kerntime::inject
