// SPDX-License-Identifier: Apache-2.0
// The kerntime command's subcommands. Each one registers its options on the app; its callback
// does the work through the library and stores the process exit status in `exit_status`:
// 0 success, 1 a found regression (compare only), 2 bad usage or input.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace kerntime::cli {

void add_info_command(CLI::App& app, int& exit_status);
/// What `kerntime --version` prints: the name and version, the CUDA runtime it was built with
/// and CUPTI as it loads here (or why not).
std::string version_text();
void add_calibrate_command(CLI::App& app, int& exit_status);
void add_compare_command(CLI::App& app, int& exit_status);
void add_report_command(CLI::App& app, int& exit_status);
void add_run_command(CLI::App& app, int& exit_status);
/// `kerntime completion bash|zsh`, hidden: the completion script of `app` as a whole, so add it
/// to the app that holds every other command.
void add_completion_command(CLI::App& app, int& exit_status);

}  // namespace kerntime::cli
