// SPDX-License-Identifier: Apache-2.0
// --processes N: the runner measures every configuration in N child processes of its own
// executable, one after another, so that the report sees the variance between processes (where
// a buffer's pages land, which clock the GPU settles at) that one process cannot show.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace kerntime::main {

/// The hidden options that make the runner a child: --kerntime-worker=K (0-based process number)
/// and --kerntime-worker-output=FILE (where it writes its results).
inline constexpr const char* kWorkerOption = "--kerntime-worker";
inline constexpr const char* kWorkerOutputOption = "--kerntime-worker-output";
/// ... and --kerntime-worker-seed=S: the parent's seed of --random-interleaving, so that every
/// child derives its order from the seed the parent printed.
inline constexpr const char* kWorkerSeedOption = "--kerntime-worker-seed";

/// The command line of child `process`: the parent's own arguments, argv[0] included, followed
/// by the worker options and `extra` (e.g. the worker seed). The child parses the same options
/// as the parent, so it selects the same configurations.
std::vector<std::string> worker_arguments(int argc, const char* const* argv, std::size_t process,
                                          const std::string& output,
                                          const std::vector<std::string>& extra = {});

/// The order in which child `process` (0-based) of `processes` runs `count` configurations:
/// indices 0..count-1 rotated to start at process * count / processes. Over the children every
/// configuration runs early, in the middle and late in a process, so that drift within a process
/// (clocks settling, memory filling) and between processes spreads over all configurations
/// instead of looking like a difference between them.
std::vector<std::size_t> process_order(std::size_t count, std::size_t process,
                                       std::size_t processes);

/// Runs `arguments` (arguments[0] is the child's argv[0]) as the executable `executable`,
/// sharing standard input, output and error, and waits for it. Returns the wait status
/// (waitpid's); throws kerntime::Error when the process cannot be started.
int run_process(const std::string& executable, const std::vector<std::string>& arguments);

/// How a process ended, from its wait status, in words: "exit status 2", "killed by signal 11
/// (Segmentation fault)". Empty for a normal exit with status 0.
std::string describe_wait_status(int wait_status);

/// The exit status a process ended with; -1 when it did not exit normally (a signal).
int exit_status_of(int wait_status);

/// What the runner says when child `process` (0-based) of `processes` failed, or nothing when
/// it ended well (exit status 0, or 1 with results: a configuration failed and its warning says
/// which). `running` is the configuration its results file named as being measured (empty:
/// it had finished them all; nothing: it wrote no readable file), `unreadable` why the file
/// could not be read. E.g. "process 3 of 5 failed (killed by signal 11 (Segmentation fault))
/// while measuring copy/bytes=1048576/cold; the configurations it finished are kept".
std::optional<std::string> describe_process_failure(std::size_t process, std::size_t processes,
                                                    int wait_status,
                                                    const std::optional<std::string>& running,
                                                    const std::string& unreadable);

/// The running executable, for starting children of the same program (a path that stays valid
/// even when the file was replaced since the program started).
inline constexpr const char* kOwnExecutable = "/proc/self/exe";

}  // namespace kerntime::main
