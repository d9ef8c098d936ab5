// SPDX-License-Identifier: Apache-2.0
// Each `kerntime run` has an id, passed to the injection library in KERNTIME_RUN_ID, which names
// every process report it writes: "HOST.[rankR.]pidN.ID.json" (src/inject/shard_name.hpp). The
// merge takes only the reports of its own id, so that a --process-reports folder that holds an
// earlier run's reports (or any other JSON) adds nothing to this run's report.
#pragma once

#include <string>
#include <vector>

namespace kerntime::cli {

/// The environment variable that carries the id (src/inject/run_settings.hpp reads it).
inline constexpr const char* kRunIdVariable = "KERNTIME_RUN_ID";

/// A new id: 16 lowercase hexadecimal digits, random.
std::string new_run_id();

/// Sets KERNTIME_RUN_ID=`id` in `env` (NAME=VALUE entries), replacing any the command inherited
/// (from an outer `kerntime run`).
void set_run_id(std::vector<std::string>& env, const std::string& id);

/// For a file name in the process-reports folder: the process's name ("HOST.[rankR.]pidN", with
/// ".G" for a pid's G-th report) when the file is a report of run `id`, else "".
std::string process_of_run(const std::string& file_name, const std::string& id);

}  // namespace kerntime::cli
