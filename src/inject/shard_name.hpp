// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>

namespace kerntime::inject {

/// The rank a launcher gave this process (RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK,
/// in that order), or "" when none did. `lookup` is std::getenv outside tests.
std::string launcher_rank(const std::function<const char*(const char*)>& lookup);

/// How a process is named in its report's environment: "HOST pid N", with " rank R" when a
/// launcher gave one and " (PROGRAM)" (its /proc comm) when known; `kerntime run` lists a
/// process that did no GPU work by what follows the host.
std::string process_label();

/// This process's report file in KERNTIME_RUN_DIR: "HOST.[rankR.]pidN.json", unique per process
/// on a machine, so ranks never share a file (NVIDIA/TensorRT-LLM#13536).
std::string shard_file_name();

}  // namespace kerntime::inject
