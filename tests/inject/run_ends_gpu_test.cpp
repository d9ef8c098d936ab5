// SPDX-License-Identifier: Apache-2.0
// Nothing completed is lost, however the process ends: for each end (return, exit, _exit,
// _Exit, os._exit, exec, fork workers and multiprocessing, SIGTERM/SIGINT/SIGHUP with and
// without the program's own handler or taken by its sigwait(), an uncaught exception, abort, a
// fault, SIGKILL), on the main thread and on another one, in a C++ program and a Python one,
// the kernels `kerntime run` reports equal those the independent reference reader
// (tests/support/reference_reader) counts on the same program run in a separate process, and
// the exact number the program launched.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <future>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report.hpp>
#include <kerntime/report_json.hpp>

#include "support/gpu_test.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

using Counts = std::map<std::string, std::uint64_t>;

constexpr int kSteps = 40;          // three kernels each
constexpr int kStepsAfterExec = 7;  // ends_target's
constexpr int kForkedWorkers = 2;   // ends_target's

enum class Language { cpp, python, torch };

struct End {
  Language language;
  const char* end;
  const char* where;  // "main" or "thread"
  int status;         // as the shell says: 128 + N for signal N
};

std::string language_name(Language language) {
  switch (language) {
    case Language::cpp:
      return "Cpp";
    case Language::python:
      return "Python";
    case Language::torch:
      return "Torch";
  }
  return "";
}

std::string test_name(const End& end) {
  std::string name = language_name(end.language) + "_";
  for (const char c : std::string{end.end})
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name + "_" + end.where;
}

// gtest names the test's parameter by this in CTest's test names.
void PrintTo(const End& end, std::ostream* out) {
  *out << test_name(end);
}

// The python that has PyTorch with CUDA: KERNTIME_TORCH_PYTHON, the build's python, python3,
// then the device machine's venv.
std::string torch_python() {
  static const std::string found = [] {
    std::vector<std::string> candidates;
    if (const char* chosen = std::getenv("KERNTIME_TORCH_PYTHON")) candidates.push_back(chosen);
    candidates.insert(candidates.end(),
                      {KERNTIME_PYTHON, "python3", "/opt/torch/.venv/bin/python3"});
    for (const std::string& python : candidates) {
      if (run_command(python + " -c 'import torch, sys; sys.exit(0 if "
                               "torch.cuda.is_available() else 1)' 2>/dev/null")
              .exit_status == 0) {
        return python;
      }
    }
    return std::string{};
  }();
  return found;
}

std::string program(const End& end, const std::string& python) {
  const std::string arguments =
      std::string{" "} + end.end + " " + end.where + " " + std::to_string(kSteps);
  if (end.language == Language::cpp) return std::string{KERNTIME_ENDS_TARGET} + arguments;
  return python + " " + KERNTIME_ENDS_TARGET_PY + arguments;
}

// What the program launches and finishes before it ends; empty for PyTorch (the reader's
// count is the reference then).
Counts launched(const End& end) {
  if (end.language == Language::torch) return {};
  const std::string e = end.end;
  std::uint64_t steps = kSteps;
  if (e == "exec") steps += kStepsAfterExec;
  if (e == "fork" || e.rfind("mp_", 0) == 0) steps *= kForkedWorkers;
  if (end.language == Language::cpp) {
    return {{"ends_alpha(float*)", steps}, {"ends_beta(float*)", 2 * steps}};
  }
  return {{"ends_py_alpha", steps}, {"ends_py_beta", 2 * steps}};
}

// Every complete record of the reader's PREFIX.PID.tsv files, by name. One with a timestamp
// missing (a kernel still running at a forced flush) counts nowhere.
Counts reference_counts(const std::string& directory, const std::string& prefix) {
  Counts counts;
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return counts;
  while (const dirent* item = readdir(dir)) {
    const std::string name = item->d_name;
    if (name.rfind(prefix + ".", 0) != 0 || name.size() < 4 ||
        name.compare(name.size() - 4, 4, ".tsv") != 0) {
      continue;
    }
    std::ifstream in{directory + "/" + name};
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> fields;
      std::stringstream split{line};
      std::string field;
      while (fields.size() < 6 && std::getline(split, field, '\t'))
        fields.push_back(field);
      std::getline(split, field);  // the name, which may hold anything but a tab
      if (fields.size() != 6) continue;
      const unsigned long long start = std::stoull(fields[0]);
      const unsigned long long stop = std::stoull(fields[1]);
      if (start != 0 && stop >= start) ++counts[field];
    }
  }
  closedir(dir);
  return counts;
}

/// The first warning containing `text`, or "".
std::string warning(const Report& report, const std::string& text) {
  for (const std::string& line : report.warnings) {
    if (line.find(text) != std::string::npos) return line;
  }
  return {};
}

Counts report_counts(const Report& report) {
  Counts counts;
  if (!report.trace) return counts;
  for (const KernelSummary& row : report.trace->kernel_summary)
    counts[row.name] += row.instances;
  return counts;
}

std::string text(const Counts& counts) {
  std::string out;
  for (const auto& [name, count] : counts)
    out += "  " + std::to_string(count) + " " + name + "\n";
  return out.empty() ? "  (none)\n" : out;
}

struct Ran {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs `command` through the shell; the status as the shell says it (a signal's 128 + N).
Ran run(const std::string& command) {
  const auto result = run_command("{ " + command + "; echo \"status $?\"; }");
  Ran ran;
  const auto at = result.out.rfind("status ");
  if (at != std::string::npos) ran.status = std::atoi(result.out.c_str() + at + 7);
  ran.out = result.out.substr(0, at == std::string::npos ? result.out.size() : at);
  ran.err = result.err;
  return ran;
}

struct Outcome {
  Ran kerntime;
  Ran reference;
  Report report;
  Counts ours;
  Counts theirs;
  std::string directory;
  std::string context;  // both counts and kerntime run's standard error, for failures
};

// Runs the program of `end` under `kerntime run` and under the reference reader, at once:
// neither's counts depend on the other.
Outcome run_both(const End& end, const std::string& python) {
  Outcome outcome;
  outcome.directory = ::testing::TempDir() + "kerntime_ends_" + test_name(end);
  const std::string& directory = outcome.directory;
  run_command("rm -rf " + directory + " && mkdir -p " + directory);
  const std::string report_path = directory + "/report.json";
  const std::string command = program(end, python);
  auto reference = std::async(std::launch::async, [&] {
    return run("CUDA_INJECTION64_PATH=" + std::string{KERNTIME_REFERENCE_READER} +
               " KERNTIME_REFERENCE_OUT=" + directory + "/reference timeout 120 " + command);
  });
  outcome.kerntime = run("timeout 120 " + std::string{KERNTIME_CLI} +
                         " run --checkpoint 250ms --process-reports " + directory +
                         "/processes -o " + report_path + " -- " + command);
  outcome.reference = reference.get();
  try {
    outcome.report = read_report_file(report_path);
  } catch (const Error& error) {
    ADD_FAILURE() << error.what() << "\n" << outcome.kerntime.err;
  }
  outcome.ours = report_counts(outcome.report);
  outcome.theirs = reference_counts(directory, "reference");
  outcome.context = "kerntime run:\n" + text(outcome.ours) + "reference reader:\n" +
                    text(outcome.theirs) + "kerntime run's standard error:\n" +
                    outcome.kerntime.err;
  return outcome;
}

class RunEnds : public testing::GpuTest, public ::testing::WithParamInterface<End> {
 protected:
  void SetUp() override {
    testing::GpuTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NE(std::string{KERNTIME_REFERENCE_READER}, "")
        << "the reference reader (tests/support/reference_reader) is not part of this build";
  }
};

TEST_P(RunEnds, EveryFinishedKernelReachesTheReport) {
  const End& end = GetParam();
  std::string python = KERNTIME_PYTHON;
  if (end.language == Language::torch) {
    python = torch_python();
    if (python.empty()) {
      if (testing::gpu_required()) FAIL() << "no python here imports torch with CUDA";
      GTEST_SKIP() << "no python here imports torch with CUDA";
    }
  }
  const Outcome outcome = run_both(end, python);
  const Report& report = outcome.report;
  const std::string& context = outcome.context;
  EXPECT_EQ(outcome.kerntime.status, end.status) << outcome.kerntime.err;
  EXPECT_EQ(outcome.reference.status, end.status) << outcome.reference.err;
  EXPECT_EQ(outcome.ours, outcome.theirs) << context;
  const Counts expected = launched(end);
  if (!expected.empty()) {
    EXPECT_EQ(outcome.ours, expected) << context;
  }
  EXPECT_FALSE(outcome.ours.empty()) << context;

  const std::string e = end.end;
  // Only SIGKILL leaves the last checkpoint; every other end writes its report then.
  const std::string checkpoint = warning(report, "this is its last checkpoint");
  if (e == "sigkill") {
    EXPECT_NE(checkpoint, "") << context;
  } else {
    EXPECT_EQ(checkpoint, "") << context;
  }
  const std::map<std::string, std::string> stopped_by{
      {"sigterm", "signal 15 (SIGTERM)"},      {"sighup", "signal 1 (SIGHUP)"},
      {"sigint", "signal 2 (SIGINT)"},         {"handler_sigterm", "signal 15 (SIGTERM)"},
      {"handler_sighup", "signal 1 (SIGHUP)"}, {"handler_sigint", "signal 2 (SIGINT)"}};
  if (const auto it = stopped_by.find(e); it != stopped_by.end()) {
    EXPECT_NE(warning(report, "the process was stopped by " + it->second), "") << context;
  }
  if (e == "sigwait_sigterm") {  // the program took its signal: no tool's handler saw it
    EXPECT_NE(outcome.kerntime.out.find("sigwait took signal 15"), std::string::npos)
        << outcome.kerntime.out << context;
    EXPECT_EQ(warning(report, "the process was stopped by"), "") << context;
  }
  if (e.rfind("handler_", 0) == 0) {  // the program's own handler still ran
    EXPECT_NE(outcome.kerntime.out.find("handler ran"), std::string::npos) << outcome.kerntime.out;
  }
  // One report per process: the workers each wrote theirs, and the program an exec replaced
  // wrote one before the new program wrote its own under the same pid.
  std::size_t processes = 1;
  if (e == "fork" || e.rfind("mp_", 0) == 0 || e == "exec") processes = 2;
  const std::string listing = run_command("ls " + outcome.directory + "/processes").out;
  EXPECT_EQ(static_cast<std::size_t>(testing::line_count(listing)), processes) << listing;
  std::printf("%s: %zu kernels; process reports:\n%s", test_name(end).c_str(),
              static_cast<std::size_t>(report.trace ? report.trace->counts.kernels : 0),
              listing.c_str());
}

std::vector<End> ends() {
  std::vector<End> all;
  for (const char* where : {"main", "thread"}) {
    for (const End& end : {
             End{Language::cpp, "return", where, 0},
             End{Language::cpp, "exit", where, 3},
             End{Language::cpp, "_exit", where, 4},
             End{Language::cpp, "_Exit", where, 5},
             End{Language::cpp, "exec", where, 0},
             End{Language::cpp, "fork", where, 0},
             End{Language::cpp, "sigterm", where, 143},
             End{Language::cpp, "sigint", where, 130},
             End{Language::cpp, "sighup", where, 129},
             End{Language::cpp, "handler_sigterm", where, 143},
             End{Language::cpp, "handler_sigint", where, 130},
             End{Language::cpp, "handler_sighup", where, 129},
             End{Language::cpp, "sigwait_sigterm", where, 6},
             End{Language::cpp, "exception", where, 134},
             End{Language::cpp, "abort", where, 134},
             End{Language::cpp, "segv", where, 139},
             End{Language::cpp, "sigkill", where, 137},
             End{Language::python, "return", where, 0},
             End{Language::python, "exit", where, 3},
             End{Language::python, "_exit", where, 4},
             End{Language::python, "exec", where, 0},
             End{Language::python, "mp_fork", where, 0},
             End{Language::python, "mp_forkserver", where, 0},
             End{Language::python, "sigterm", where, 143},
             End{Language::python, "sigint", where, 130},
             End{Language::python, "sighup", where, 129},
             End{Language::python, "handler_sigterm", where, 143},
             End{Language::python, "handler_sigint", where, 130},
             End{Language::python, "handler_sighup", where, 129},
             End{Language::python, "sigwait_sigterm", where, 6},
             End{Language::python, "exception", where, 1},
             End{Language::python, "abort", where, 134},
             End{Language::python, "segv", where, 139},
             End{Language::python, "sigkill", where, 137},
         }) {
      all.push_back(end);
    }
  }
  all.push_back(End{Language::torch, "torch_exit", "main", 4});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Ends, RunEnds, ::testing::ValuesIn(ends()),
                         [](const auto& info) { return test_name(info.param); });

class RunEndsInFlight : public testing::GpuTest, public ::testing::WithParamInterface<End> {};

// A kernel still running when SIGTERM comes: the kernels that finished before it are all
// there, as the reader counts them, and the running one is in the report, finished (kerntime
// waits for the GPU before its last records) or named as in flight; the reader, which is not
// told of the signal, never has it. In a C++ program and in a Python one.
TEST_P(RunEndsInFlight, AKernelRunningAtASignalIsCountedOrNamed) {
  ASSERT_NE(std::string{KERNTIME_REFERENCE_READER}, "");
  const End& end = GetParam();
  Outcome outcome = run_both(end, KERNTIME_PYTHON);
  EXPECT_EQ(outcome.kerntime.status, 143) << outcome.kerntime.err;
  EXPECT_EQ(outcome.reference.status, 143) << outcome.reference.err;
  const std::string spin =
      end.language == Language::cpp ? "ends_spin(unsigned long long)" : "ends_py_spin";
  EXPECT_EQ(outcome.theirs.count(spin), 0u) << outcome.context;
  const std::uint64_t spun = outcome.ours.count(spin) != 0 ? outcome.ours.at(spin) : 0;
  outcome.ours.erase(spin);
  EXPECT_EQ(outcome.ours, outcome.theirs) << outcome.context;
  EXPECT_EQ(outcome.ours, launched(end)) << outcome.context;
  const std::string named =
      warning(outcome.report, end.language == Language::cpp ? "ends_spin" : "ends_py_spin");
  EXPECT_TRUE(spun == 1 || named != "") << outcome.context;
  std::printf("%s: the kernel running at SIGTERM: %s\n", test_name(end).c_str(),
              spun == 1 ? "recorded, finished after the signal" : named.c_str());
}

INSTANTIATE_TEST_SUITE_P(Busy, RunEndsInFlight,
                         ::testing::Values(End{Language::cpp, "sigterm_busy", "main", 143},
                                           End{Language::python, "sigterm_busy", "main", 143}),
                         [](const auto& info) { return test_name(info.param); });

class RunEndsLateSigwait : public testing::GpuTest, public ::testing::WithParamInterface<End> {};

// A program that blocks SIGUSR1 only after CUDA started and takes it with sigwait(): the signal
// must reach it under `kerntime run` as it does without any tool. kerntime's threads and CUPTI's
// start with the program's signals blocked; before, its record reader took SIGUSR1, whose default
// action ended the process. The CUDA driver's own threads are the program's as much as the
// tool's: the bare run says what they do, and `kerntime run` must end the same way.
TEST_P(RunEndsLateSigwait, ASignalBlockedAfterCudaStartedReachesTheProgramAsWithoutATool) {
  const End& end = GetParam();
  const Ran bare = run("timeout 120 " + program(end, KERNTIME_PYTHON));
  const Outcome outcome = run_both(end, KERNTIME_PYTHON);
  EXPECT_EQ(outcome.kerntime.status, bare.status) << outcome.kerntime.err << outcome.context;
  if (bare.status != end.status) {
    std::printf(
        "%s: without a tool the process ended with status %d: a thread of CUDA's took "
        "SIGUSR1, so this run checks only that kerntime ends it alike\n",
        test_name(end).c_str(), bare.status);
    return;
  }
  EXPECT_NE(outcome.kerntime.out.find("sigwait took signal 10"), std::string::npos)
      << outcome.kerntime.out;
  EXPECT_EQ(outcome.ours, launched(end)) << outcome.context;
  EXPECT_EQ(warning(outcome.report, "the process was stopped by"), "") << outcome.context;
}

INSTANTIATE_TEST_SUITE_P(Late, RunEndsLateSigwait,
                         ::testing::Values(End{Language::cpp, "sigwait_late_sigusr1", "main", 6},
                                           End{Language::python, "sigwait_late_sigusr1", "main",
                                               6}),
                         [](const auto& info) { return test_name(info.param); });

using RunEndsCheckpoint = testing::GpuTest;

// How recent the last checkpoint is when the GPU is never idle at one: the program launches
// 20 us kernels without a pause for 3 s, and SIGKILL ends it. A checkpoint takes the buffers
// CUPTI has completed, never a running kernel; the test prints how far it lagged (docs/run.md).
TEST_F(RunEndsCheckpoint, HowRecentTheLastCheckpointIsOnABusyGpu) {
  const End end{Language::cpp, "sigkill_busy", "main", 137};
  const std::string directory = ::testing::TempDir() + "kerntime_ends_checkpoint";
  run_command("rm -rf " + directory + " && mkdir -p " + directory);
  const std::string report_path = directory + "/report.json";
  const Ran ran = run("timeout 120 " + std::string{KERNTIME_CLI} + " run --checkpoint 250ms -o " +
                      report_path + " -- " + program(end, ""));
  EXPECT_EQ(ran.status, 137) << ran.err;
  const Report report = read_report_file(report_path);
  EXPECT_NE(warning(report, "this is its last checkpoint"), "") << ran.err;
  const auto at = ran.out.rfind("launched ");
  ASSERT_NE(at, std::string::npos) << ran.out;
  const std::uint64_t launched = std::stoull(ran.out.substr(at + 9));
  const Counts ours = report_counts(report);
  const std::string spin = "ends_spin(unsigned long long)";
  const std::uint64_t held = ours.count(spin) != 0 ? ours.at(spin) : 0;
  // The program had launched at least `launched` spins and fewer than 1,000 more.
  EXPECT_LE(held, launched + 1000) << ran.out;
  // docs/run.md: a checkpoint on a GPU never idle lags by up to one 8 MiB buffer (some 30,000
  // records, 0.6 s of 20 us spins) and one or two intervals (0.25 s each), behind 3 s of
  // launching: some two thirds of what was launched. Under a quarter means the checkpoints
  // stopped or went stale, beyond what a loaded host explains.
  EXPECT_GE(held, launched / 4) << ran.out << ran.err;
  // The steps before the spins: in a buffer the spins filled and completed long before.
  const auto alpha = ours.find("ends_alpha(float*)");
  EXPECT_EQ(alpha != ours.end() ? alpha->second : 0, static_cast<std::uint64_t>(kSteps)) << ran.err;
  std::printf(
      "busy GPU, SIGKILL after 3 s: the last checkpoint held %llu of the %llu-%llu spins "
      "launched (%.1f %%), %lld behind\n",
      static_cast<unsigned long long>(held), static_cast<unsigned long long>(launched),
      static_cast<unsigned long long>(launched + 999),
      launched > 0 ? 100.0 * static_cast<double>(held) / static_cast<double>(launched) : 0.0,
      static_cast<long long>(launched) - static_cast<long long>(held));
}

}  // namespace
}  // namespace kerntime
