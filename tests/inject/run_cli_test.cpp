// SPDX-License-Identifier: Apache-2.0
// `kerntime run` without a GPU: the command line, its exit statuses, the environment it gives
// the program, a program that never starts CUDA, and the parent's side (issue 25): the run id
// and the merge of its own process reports, output paths checked first and a fallback at the
// end, and the temporary folder. The signals it passes on: run_signals_cli_test.cpp.
#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <map>
#include <random>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "cli/run_environment.hpp"
#include "cli/run_id.hpp"
#include "inject/run_recorder.hpp"
#include "inject/run_settings.hpp"
#include "inject/shard_name.hpp"
#include "run_cli_support.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using namespace run_cli_test;
using testing::run_command;

std::string kerntime_run(const std::string& rest) {
  return std::string{KERNTIME_CLI} + " run " + rest;
}

std::vector<std::string> names_in(const std::string& folder) {
  std::vector<std::string> names;
  if (DIR* dir = opendir(folder.c_str())) {
    while (const dirent* item = readdir(dir)) {
      const std::string name = item->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A report with one kernel entry, as a process of `kerntime run` writes it.
Report process_report(const std::string& kernel) {
  inject::RunSettings settings;
  settings.output_directory = "/tmp";
  inject::RunRecorder recorder(settings);
  trace::RecordBatch batch;
  for (std::uint64_t i = 0; i < 5; ++i) {
    trace::RawKernel k;
    k.name = kernel.c_str();
    k.start_ns = 1'000'000 + i * 10'000;
    k.end_ns = k.start_ns + 2'000 + i;
    batch.kernels.push_back(k);
  }
  recorder.append(std::move(batch));
  return recorder.report();
}

TEST(RunCli, ExitsWithTheProgramsStatus) {
  EXPECT_EQ(run_command(kerntime_run("-- true")).exit_status, 0);
  EXPECT_EQ(run_command(kerntime_run("-- sh -c 'exit 3'")).exit_status, 3);
  // A signal death reads as the shell reports it: 128 + N.
  EXPECT_EQ(run_command(kerntime_run("-- sh -c 'kill -TERM $$'")).exit_status, 143);
}

TEST(RunCli, ItsOwnFailuresExitTwoWithOneLine) {
  for (const std::string bad :
       {"-- /no/such/program", "--delay 2x -- true", "--capture-range sometimes -- true",
        "--kernel-filter '([' -- true", "--samples-per-kernel 0 -- true", ""}) {
    const auto result = run_command(kerntime_run(bad));
    EXPECT_EQ(result.exit_status, 2) << bad;
    EXPECT_EQ(testing::line_count(result.err), 1) << bad << ": " << result.err;
  }
  const auto other_tool =
      run_command("CUDA_INJECTION64_PATH=/opt/tool.so " + kerntime_run("-- true"));
  EXPECT_EQ(other_tool.exit_status, 2);
  EXPECT_NE(other_tool.err.find("/opt/tool.so"), std::string::npos) << other_tool.err;
}

TEST(RunCli, AProgramWithoutCudaWorkSaysSoAndStillWritesItsReport) {
  const std::string path = ::testing::TempDir() + "kerntime_run_no_cuda.json";
  const auto result = run_command(kerntime_run("-o " + path + " -- sh -c 'exit 0'"));
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_NE(result.err.find("no CUDA work was recorded"), std::string::npos) << result.err;
  const Report report = read_report_file(path);
  EXPECT_TRUE(report.entries.empty());
  ASSERT_FALSE(report.warnings.empty());
  EXPECT_NE(report.warnings.front().find("no CUDA work"), std::string::npos);
}

TEST(RunCli, AProgramWithoutCudaWorkKeepsItsOwnExitStatus) {
  const auto result = run_command(kerntime_run("-- sh -c 'exit 5'"));
  EXPECT_EQ(result.exit_status, 5);
  EXPECT_NE(result.err.find("kerntime run: no CUDA work was recorded (no process of the program "
                            "started CUDA with kerntime's library loaded"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(testing::line_count(result.err), 1) << result.err;
  EXPECT_EQ(run_command(kerntime_run("--no-last-launch -- sh -c 'kill -ABRT $$'")).exit_status,
            134);
}

TEST(RunCli, TheProgramSeesTheInjectionVariablesAndItsOwnArguments) {
  const auto result = run_command(
      kerntime_run("--capture-range nvtx:train --delay 1.5s --checkpoint 0 -- sh -c "
                   "'echo \"$CUDA_INJECTION64_PATH|$NVTX_INJECTION64_PATH|$KERNTIME_RUN_CAPTURE|"
                   "$KERNTIME_RUN_DELAY_NS|$KERNTIME_RUN_CHECKPOINT_MS|$0 $1\"' first second"));
  EXPECT_EQ(result.exit_status, 0) << result.err;
  const std::string line = result.out;
  EXPECT_NE(line.find("libkerntime_inject.so|"), std::string::npos) << line;
  EXPECT_NE(line.find("|nvtx:train|1500000000|0|first second"), std::string::npos) << line;
}

// Two `kerntime run` reports of the same program, one with a kernel 20 % slower: compare names
// that kernel and only that one.
TEST(RunCli, CompareOfTwoRunReportsNamesTheKernelThatSlowedDown) {
  const auto record = [](double slowdown, std::uint64_t seed) {
    inject::RunSettings settings;
    settings.output_directory = "/tmp";
    inject::RunRecorder recorder(settings);
    std::mt19937_64 random(seed);
    std::normal_distribution<double> noise(0.0, 20.0);
    trace::RecordBatch batch;
    std::uint64_t t = 1'000'000;
    for (int i = 0; i < 2000; ++i) {
      for (const auto& [name, ns] :
           {std::pair{"steady_gemm", 20'000.0}, std::pair{"slowed_norm", 4'000.0}}) {
        trace::RawKernel k;
        k.name = name;
        const double factor = std::string{name} == "slowed_norm" ? slowdown : 1.0;
        k.start_ns = t;
        k.end_ns = t + static_cast<std::uint64_t>(ns * factor + noise(random));
        t = k.end_ns + 1000;
        batch.kernels.push_back(k);
      }
    }
    recorder.append(std::move(batch));
    return recorder.report();
  };
  const std::string base = ::testing::TempDir() + "kerntime_run_base.json";
  const std::string slow = ::testing::TempDir() + "kerntime_run_slow.json";
  write_report_file(record(1.0, 1), base);
  write_report_file(record(1.2, 2), slow);
  const auto result =
      run_command(std::string{KERNTIME_CLI} + " compare " + base + " " + slow + " --format md");
  EXPECT_EQ(result.exit_status, 1) << result.out << result.err;
  std::string slowed_row, steady_row;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("| slowed", 0) == 0) slowed_row = line;
    if (line.rfind("| steady", 0) == 0) steady_row = line;
  }
  EXPECT_NE(slowed_row.find("**regressed**"), std::string::npos) << result.out;
  EXPECT_NE(steady_row.find("| same |"), std::string::npos) << result.out;
}

// Item 3 of issue 25: a --process-reports folder that already holds reports (an earlier run's,
// or any other JSON) adds none of them to this run's report, and the command says so.
TEST(RunCli, MergesOnlyThisRunsProcessReports) {
  const std::string folder = fresh_folder("kerntime_run_reports");
  write_report_file(process_report("stale_gemm"), folder + "/host.pid11.json");
  write_report_file(process_report("stale_norm"), folder + "/host.pid12.0123456789abcdef.json");
  // The program stands in for a process that started CUDA: it writes this run's report, named
  // as the injection library names it.
  const std::string fresh = ::testing::TempDir() + "kerntime_run_fresh.report";
  write_report_file(process_report("fresh_kernel"), fresh);
  const std::string out = folder + "/../kerntime_run_merged.json";
  const auto result =
      run_command(kerntime_run("--process-reports " + folder + " -o " + out + " -- sh -c 'cp " +
                               fresh + " \"$KERNTIME_RUN_DIR/host.pid13.$KERNTIME_RUN_ID.json\"'"));
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const Report merged = read_report_file(out);
  std::vector<std::string> names;
  for (const Entry& entry : merged.entries)
    names.push_back(entry.name);
  EXPECT_EQ(names, std::vector<std::string>{"fresh_kernel"}) << result.err;
  EXPECT_NE(result.err.find("skipped 2 other .json files in " + folder +
                            ", another run's or not a process report"),
            std::string::npos)
      << result.err;
  // The folder is the user's: every report stays.
  EXPECT_EQ(names_in(folder).size(), 3u);
}

TEST(RunCli, EachRunHasItsOwnIdInItsReportNames) {
  const auto result = run_command(kerntime_run("-- sh -c 'echo \"$KERNTIME_RUN_ID\"'"));
  const auto again = run_command(kerntime_run("-- sh -c 'echo \"$KERNTIME_RUN_ID\"'"));
  ASSERT_EQ(result.exit_status, 0) << result.err;
  const std::string id = result.out.substr(0, result.out.find('\n'));
  EXPECT_TRUE(inject::is_run_id(id)) << id;
  EXPECT_NE(id, again.out.substr(0, again.out.find('\n')));
  // An outer `kerntime run`'s id is replaced, not inherited.
  const auto nested = run_command("KERNTIME_RUN_ID=0123456789abcdef " +
                                  kerntime_run("-- sh -c 'env | grep -c ^KERNTIME_RUN_ID='"));
  EXPECT_EQ(nested.out, "1\n");
  EXPECT_EQ(cli::process_of_run("vm.rank1.pid7." + id + ".json", id), "vm.rank1.pid7");
  EXPECT_EQ(cli::process_of_run("vm.rank1.pid7.json", id), "");
  // A pid's second report (exec): inject's unused_report_path adds the generation after the id.
  EXPECT_EQ(cli::process_of_run("vm.pid7." + id + ".2.json", id), "vm.pid7.2");
  EXPECT_EQ(cli::process_of_run("vm.pid7." + id + ".x.json", id), "");
  EXPECT_EQ(cli::process_of_run("vm.pid7." + id + "..json", id), "");
  EXPECT_EQ(cli::process_of_run("vm.pid7.0123456789abcdef.json", id), "");
}

TEST(RunSettings, TheRunIdNamesEachProcessReport) {
  std::map<std::string, std::string> values{
      {"KERNTIME_RUN_DIR", "/tmp"}, {"KERNTIME_RUN_ID", "00ff00ff00ff00ff"}, {"RANK", "3"}};
  const auto lookup = [&values](const char* name) -> const char* {
    const auto it = values.find(name);
    return it == values.end() ? nullptr : it->second.c_str();
  };
  EXPECT_EQ(inject::read_run_settings(lookup).run_id, "00ff00ff00ff00ff");
  const std::string pid = std::to_string(getpid());
  const std::string name = inject::shard_file_name(lookup);
  EXPECT_NE(name.find(".rank3.pid" + pid + ".00ff00ff00ff00ff.json"), std::string::npos) << name;
  EXPECT_EQ(name.size() - name.find(".rank3."),
            std::string{".rank3.pid.00ff00ff00ff00ff.json"}.size() + pid.size());
  const std::string label = inject::process_label(lookup);
  EXPECT_NE(label.find(" pid " + pid + " rank 3 ("), std::string::npos) << label;
  const std::string run = " run 00ff00ff00ff00ff";
  EXPECT_EQ(label.compare(label.size() - run.size(), run.size(), run), 0) << label;
  for (const std::string bad :
       {"", "00FF00FF00FF00FF", "00ff", "00ff00ff00ff00ff0", "../../etc/x"}) {
    values["KERNTIME_RUN_ID"] = bad;
    EXPECT_THROW(inject::read_run_settings(lookup), Error) << bad;
  }
  values.erase("KERNTIME_RUN_ID");
  EXPECT_EQ(inject::read_run_settings(lookup).run_id, "");
  EXPECT_EQ(inject::shard_file_name(lookup).substr(inject::shard_file_name(lookup).find(".rank3.")),
            ".rank3.pid" + pid + ".json");
}

// Item 4: -o, --timeline and --html are checked before the program starts: it does not run.
TEST(RunCli, RefusesAnOutputItCannotWriteBeforeTheProgramStarts) {
  const std::string folder = fresh_folder("kerntime_run_outputs");
  const std::string marker = folder + "/ran";
  for (const std::string& option : std::vector<std::string>{
           "-o /no/such/folder/x.json", "--timeline /no/such/folder/x.json", "-o " + folder,
           "--timeline " + folder + "/", "--html /no/such/folder/x.html", "--html " + folder}) {
    const auto result =
        run_command(kerntime_run(option + " -- sh -c 'touch " + marker + "; exit 3'"));
    EXPECT_EQ(result.exit_status, 2) << option;
    EXPECT_FALSE(exists(marker)) << option << ": the program ran";
    EXPECT_EQ(testing::line_count(result.err), 1) << option << ": " << result.err;
    EXPECT_NE(result.err.find("the program was not started"), std::string::npos) << result.err;
    std::remove(marker.c_str());
  }
  // Nothing is left behind by the check.
  EXPECT_TRUE(names_in(folder).empty());
}

// The path in "...; the `what` went to PATH instead" on standard error; "" when it is not there.
std::string fallback_named(const std::string& err, const std::string& what) {
  const std::string went = "; the " + what + " went to ";
  const auto at = err.find(went);
  if (at == std::string::npos) return {};
  return err.substr(at + went.size(), err.find(" instead", at) - at - went.size());
}

// Item 4: a report that cannot be written at the end (the disk filled up) goes to a fallback
// the message names, and the exit status stays the program's.
TEST(RunCli, AReportThatCannotBeWrittenAtTheEndGoesToANamedFallback) {
  const std::string folder = fresh_folder("kerntime_run_fallback");
  const auto result =
      run_command("TMPDIR=" + folder + " " + kerntime_run("-o /dev/full -- sh -c 'exit 3'"));
  EXPECT_EQ(result.exit_status, 3) << result.err;
  const std::string fallback = fallback_named(result.err, "report");
  ASSERT_FALSE(fallback.empty()) << result.err;
  EXPECT_EQ(fallback.rfind(folder + "/kerntime-run-", 0), 0u) << fallback;
  const Report report = read_report_file(fallback);
  ASSERT_FALSE(report.warnings.empty());
  EXPECT_NE(report.warnings.front().find("no CUDA work"), std::string::npos);
  EXPECT_NE(result.err.find("-o: cannot write /dev/full: No space left on device"),
            std::string::npos)
      << result.err;
}

// Issue 30: the run's page is written even of a program that ran no CUDA, and says so; a page
// that cannot be written at the end goes to a named .html fallback.
TEST(RunCli, ThePageOfARunSaysWhatWasRecordedAndFallsBackToANamedFile) {
  const std::string folder = fresh_folder("kerntime_run_page");
  const std::string path = folder + "/run.html";
  auto result = run_command(kerntime_run("--html " + path + " -- sh -c 'exit 4'"));
  EXPECT_EQ(result.exit_status, 4) << result.err;
  const std::string page = run_command("cat " + path).out;
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u) << page.substr(0, 200);
  EXPECT_NE(page.find("no CUDA work was recorded"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);

  result = run_command("TMPDIR=" + folder + " " + kerntime_run("--html /dev/full -- true"));
  EXPECT_EQ(result.exit_status, 0) << result.err;
  const std::string fallback = fallback_named(result.err, "page");
  ASSERT_FALSE(fallback.empty()) << result.err;
  EXPECT_EQ(fallback.rfind(folder + "/kerntime-run-", 0), 0u) << fallback;
  EXPECT_EQ(fallback.substr(fallback.size() - 10), "-page.html") << fallback;
  EXPECT_EQ(run_command("head -c 15 " + fallback).out, "<!DOCTYPE html>");
}

TEST(RunCli, ATimelineOfAProgramWithoutCudaSaysWhyNoFileWasWritten) {
  const std::string path = ::testing::TempDir() + "kerntime_run_no_timeline.json";
  std::remove(path.c_str());
  const auto result = run_command(kerntime_run("--timeline " + path + " -- true"));
  EXPECT_EQ(result.exit_status, 0);
  EXPECT_FALSE(exists(path));
  EXPECT_NE(result.err.find("--timeline " + path +
                            " was not written: no process of the program started CUDA"),
            std::string::npos)
      << result.err;
}

// Item 7: no temporary folder is left behind, however the run ends.
TEST(RunCli, LeavesNoTemporaryFolderBehind) {
  const std::string folder = fresh_folder("kerntime_run_tmpdir");
  const std::string tmpdir = "TMPDIR=" + folder + " ";
  EXPECT_EQ(run_command(tmpdir + kerntime_run("-- /no/such/program")).exit_status, 2);
  EXPECT_EQ(names_in(folder), std::vector<std::string>{}) << "a program that cannot start";
  EXPECT_EQ(run_command(tmpdir + "CUDA_INJECTION64_PATH=/opt/tool.so " + kerntime_run("-- true"))
                .exit_status,
            2);
  EXPECT_EQ(names_in(folder), std::vector<std::string>{}) << "another CUDA tool";
  EXPECT_EQ(run_command(tmpdir + kerntime_run("-- sh -c 'kill -TERM $$'")).exit_status, 143);
  EXPECT_EQ(names_in(folder), std::vector<std::string>{}) << "a program ended by a signal";
  // A process report the program left: the folder is removed with it.
  EXPECT_EQ(run_command(tmpdir + kerntime_run("-- sh -c 'echo {} > \"$KERNTIME_RUN_DIR/x.json\"'"))
                .exit_status,
            0);
  EXPECT_EQ(names_in(folder), std::vector<std::string>{}) << "a folder with a report in it";
}

TEST(RunEnvironment, SetsTheInjectionAndKeepsEverythingElse) {
  std::vector<std::string> current{"PATH=/bin", "CUDA_INJECTION64_PATH=", "KERNTIME_RUN_DIR=/old"};
  std::vector<char*> pointers;
  for (std::string& entry : current)
    pointers.push_back(entry.data());
  pointers.push_back(nullptr);
  cli::RunOptions options;
  options.duration = "10s";
  const auto env = cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", options);
  const auto has = [&](const std::string& entry) {
    return std::find(env.begin(), env.end(), entry) != env.end();
  };
  EXPECT_TRUE(has("PATH=/bin"));
  EXPECT_TRUE(has("CUDA_INJECTION64_PATH=/lib/inject.so"));
  EXPECT_TRUE(has("NVTX_INJECTION64_PATH=/lib/inject.so"));
  EXPECT_TRUE(has("KERNTIME_RUN_DIR=/tmp/d"));
  EXPECT_FALSE(has("KERNTIME_RUN_DIR=/old"));
  EXPECT_TRUE(has("KERNTIME_RUN_DURATION_NS=10000000000"));
  EXPECT_TRUE(has("KERNTIME_RUN_LAST_LAUNCH=1"));
  options.no_last_launch = true;
  const auto without = cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", options);
  EXPECT_NE(std::find(without.begin(), without.end(), "KERNTIME_RUN_LAST_LAUNCH=0"), without.end());
  EXPECT_TRUE(has("KERNTIME_RUN_ALL_API_CALLS=0"));
  options.all_api_calls = true;
  const auto every = cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", options);
  EXPECT_NE(std::find(every.begin(), every.end(), "KERNTIME_RUN_ALL_API_CALLS=1"), every.end());
  // Launch calls' API records only for a timeline, which alone draws them.
  EXPECT_TRUE(has("KERNTIME_RUN_LAUNCH_CALLS=0"));
  options.timeline = "/tmp/t.json";
  const auto drawn = cli::run_environment(pointers.data(), "/lib/inject.so", "/tmp/d", options);
  EXPECT_NE(std::find(drawn.begin(), drawn.end(), "KERNTIME_RUN_LAUNCH_CALLS=1"), drawn.end());
  EXPECT_EQ(std::find(drawn.begin(), drawn.end(), "KERNTIME_RUN_LAUNCH_CALLS=0"), drawn.end());
  EXPECT_EQ(cli::parse_run_duration("--delay", "250ms"), 250'000'000u);
  EXPECT_EQ(cli::parse_run_duration("--delay", "1.5min"), 90'000'000'000u);
  EXPECT_THROW(cli::parse_run_duration("--delay", "-1s"), Error);
}

}  // namespace
}  // namespace kerntime
