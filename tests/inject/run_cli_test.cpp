// SPDX-License-Identifier: Apache-2.0
// `kerntime run` without a GPU: the command line, its exit statuses, the environment it gives
// the program, a program that never starts CUDA, and the parent's side (issue 25): the run id
// and the merge of its own process reports, output paths checked first and a fallback at the
// end, the temporary folder, and the signals it passes on.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>

#include "cli/run_environment.hpp"
#include "cli/run_id.hpp"
#include "cli/signal_relay.hpp"
#include "inject/run_recorder.hpp"
#include "inject/run_settings.hpp"
#include "inject/shard_name.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

std::string kerntime_run(const std::string& rest) {
  return std::string{KERNTIME_CLI} + " run " + rest;
}

// A new empty folder under the test's temporary folder.
std::string fresh_folder(const std::string& name) {
  std::string path = ::testing::TempDir() + name + "-XXXXXX";
  if (mkdtemp(path.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + path);
  return path;
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

std::string text_of(const std::string& path) {
  std::ifstream in{path};
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool exists(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0;
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

// `kerntime run ARGS...` started directly, as a shell with job control starts it: every signal
// at its default (a script's `cmd &` would ignore SIGINT and SIGQUIT), in a process group of its
// own (so that a program's kill(0, ...) stays inside), standard error to `err`.
pid_t start_run(const std::vector<std::string>& args, const std::string& err) {
  const pid_t child = fork();
  if (child == 0) {
    setpgid(0, 0);
    for (int signal = 1; signal < NSIG; ++signal)
      std::signal(signal, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    const int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 2);
    std::vector<char*> argv{const_cast<char*>(KERNTIME_CLI), const_cast<char*>("run")};
    for (const std::string& arg : args)
      argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    execv(KERNTIME_CLI, argv.data());
    _exit(127);
  }
  return child;
}

// Waits until `path` holds a whole line (a program's "ready" with its pid); its number or 0.
pid_t wait_for_ready(const std::string& path) {
  for (int i = 0; i < 500; ++i) {
    const std::string text = text_of(path);
    if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

// The exit status of `pid` as a shell reports it, or -1 (and the process killed) after 20 s.
int wait_for_exit(pid_t pid) {
  for (int i = 0; i < 2000; ++i) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

// The state letter of process `pid` in /proc (R, S, T for stopped, ...).
char process_state(pid_t pid) {
  const std::string stat = text_of("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() ? '?' : stat[close + 2];
}

// A program that writes its pid to READY, then waits up to 5 s for signal SIGNAL (its name, as
// `trap` takes it), writes "got" to GOT and exits 7; 99 when none came.
std::string program_waiting_for(const std::string& signal, const std::string& ready,
                                const std::string& got) {
  return "trap 'echo got > " + got + "; exit 7' " + signal + "; echo $$ > " + ready + ".tmp; mv " +
         ready + ".tmp " + ready +
         "; i=0; while [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done; exit 99";
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

// Item 7: whatever a user or a scheduler sends to kerntime reaches the program, and kerntime
// exits with the program's status.
TEST(RunCli, PassesEverySignalSentToItOnToTheProgram) {
  const std::string folder = fresh_folder("kerntime_run_signals");
  const std::vector<std::pair<int, std::string>> signals{
      {SIGHUP, "HUP"},   {SIGINT, "INT"},   {SIGQUIT, "QUIT"}, {SIGTERM, "TERM"},
      {SIGUSR1, "USR1"}, {SIGUSR2, "USR2"}, {SIGALRM, "ALRM"}, {SIGWINCH, "WINCH"}};
  for (const auto& [signal, name] : signals) {
    const std::string ready = folder + "/" + name + ".ready";
    const std::string got = folder + "/" + name + ".got";
    const pid_t run = start_run({"--", "sh", "-c", program_waiting_for(name, ready, got)},
                                folder + "/" + name + ".err");
    ASSERT_NE(wait_for_ready(ready), 0) << name << ": " << text_of(folder + "/" + name + ".err");
    kill(run, signal);
    EXPECT_EQ(wait_for_exit(run), 7) << name << ": " << text_of(folder + "/" + name + ".err");
    EXPECT_EQ(text_of(got), "got\n") << name;
  }
}

TEST(RunCli, StopsAndContinuesWithTheProgram) {
  const std::string folder = fresh_folder("kerntime_run_stop");
  const std::string ready = folder + "/ready";
  const pid_t run = start_run({"--", "sh", "-c", program_waiting_for("TERM", ready, "/dev/null")},
                              folder + "/err");
  const pid_t program = wait_for_ready(ready);
  ASSERT_NE(program, 0) << text_of(folder + "/err");
  kill(run, SIGTSTP);
  // kerntime stops too, so that the shell that started it sees the job stopped.
  int status = 0;
  pid_t changed = 0;
  for (int i = 0; i < 1000 && changed == 0; ++i) {
    changed = waitpid(run, &status, WUNTRACED | WNOHANG);
    if (changed == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(changed, run);
  EXPECT_TRUE(WIFSTOPPED(status));
  for (int i = 0; i < 200 && process_state(program) != 'T'; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(process_state(program), 'T');
  kill(run, SIGCONT);
  for (int i = 0; i < 200 && process_state(program) == 'T'; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_NE(process_state(program), 'T');
  kill(run, SIGTERM);
  EXPECT_EQ(wait_for_exit(run), 7);
}

// A signal the program sends to kerntime (its parent) neither ends kerntime nor comes back.
TEST(RunCli, ASignalFromTheProgramItselfIsNotSentBack) {
  const std::string folder = fresh_folder("kerntime_run_own_signal");
  const std::string got = folder + "/got";
  const pid_t run =
      start_run({"--", "sh", "-c",
                 "trap 'echo back >> " + got + "' USR1; kill -USR1 $PPID; sleep 0.5; exit 4"},
                folder + "/err");
  EXPECT_EQ(wait_for_exit(run), 4) << text_of(folder + "/err");
  EXPECT_FALSE(exists(got));
}

// Ctrl-C at a terminal reaches the program directly (one process group); kerntime lets it
// decide, waits, and exits with its status.
TEST(RunCli, CtrlCAtATerminalIsTheProgramsToHandle) {
  const std::string folder = fresh_folder("kerntime_run_terminal");
  const std::string ready = folder + "/ready";
  const std::string got = folder + "/got";
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) GTEST_SKIP() << "no pseudo-terminal here: " << std::strerror(errno);
  ASSERT_EQ(grantpt(master), 0);
  ASSERT_EQ(unlockpt(master), 0);
  const std::string terminal = ptsname(master);
  const std::string script = program_waiting_for("INT", ready, got);
  const pid_t run = fork();
  if (run == 0) {
    setsid();
    const int slave = open(terminal.c_str(), O_RDWR);
    ioctl(slave, TIOCSCTTY, 0);
    dup2(slave, 0);
    dup2(slave, 1);
    dup2(slave, 2);
    for (int signal = 1; signal < NSIG; ++signal)
      std::signal(signal, SIG_DFL);
    execl(KERNTIME_CLI, KERNTIME_CLI, "run", "--", "sh", "-c", script.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  ASSERT_NE(wait_for_ready(ready), 0);
  const char interrupt = 3;  // VINTR, Ctrl-C
  ASSERT_EQ(write(master, &interrupt, 1), 1);
  // Drain the terminal while waiting, so that nothing blocks on a full one.
  fcntl(master, F_SETFL, O_NONBLOCK);
  int status = -1;
  for (int i = 0; i < 2000 && status < 0; ++i) {
    char buffer[256];
    while (read(master, buffer, sizeof buffer) > 0) {
    }
    int raw = 0;
    if (waitpid(run, &raw, WNOHANG) == run)
      status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  close(master);
  if (status < 0) {
    kill(run, SIGKILL);
    waitpid(run, nullptr, 0);
  }
  EXPECT_EQ(status, 7);
  EXPECT_EQ(text_of(got), "got\n");
}

TEST(SignalRelay, PassesOnWhatNeitherTheTerminalNorTheProgramSent) {
  const auto from_program = [](pid_t sender) { return sender == 500 || sender == 501; };
  // kill(kerntime, ...) by a user or a scheduler.
  for (const int signal :
       {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH, SIGCONT, SIGTSTP}) {
    EXPECT_TRUE(cli::should_forward({signal, SI_USER, 42}, from_program)) << signal;
    EXPECT_TRUE(cli::should_forward({signal, SI_QUEUE, 42}, from_program)) << signal;
  }
  // The terminal sends these to the whole foreground group: the program has them already.
  for (const int signal : {SIGINT, SIGQUIT, SIGTSTP, SIGWINCH, SIGHUP, SIGCONT}) {
    EXPECT_FALSE(cli::should_forward({signal, SI_KERNEL, 0}, from_program)) << signal;
  }
  // kerntime's own timer is not the program's.
  EXPECT_TRUE(cli::should_forward({SIGALRM, SI_KERNEL, 0}, from_program));
  // The program, or a child of it, sent it (kill(0, ...), or to its parent).
  EXPECT_FALSE(cli::should_forward({SIGTERM, SI_USER, 500}, from_program));
  EXPECT_FALSE(cli::should_forward({SIGUSR1, SI_TKILL, 501}, from_program));
  EXPECT_TRUE(cli::is_descendant(getpid(), getppid()));
  EXPECT_TRUE(cli::is_descendant(getpid(), getpid()));
  EXPECT_FALSE(cli::is_descendant(getppid(), getpid()));
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
  EXPECT_EQ(cli::parse_run_duration("--delay", "250ms"), 250'000'000u);
  EXPECT_EQ(cli::parse_run_duration("--delay", "1.5min"), 90'000'000'000u);
  EXPECT_THROW(cli::parse_run_duration("--delay", "-1s"), Error);
}

}  // namespace
}  // namespace kerntime
