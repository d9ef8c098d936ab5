// SPDX-License-Identifier: Apache-2.0
// `kerntime run [options] -- PROGRAM [ARGS...]`: runs a program unchanged with kerntime's
// injection library (CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH), waits for it, merges the
// report each of its processes wrote, and exits with the program's exit status.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <climits>
#include <fmt/core.h>

#include <kerntime/duration.hpp>
#include <kerntime/error.hpp>
#include <kerntime/format.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/report_json.hpp>
#include <kerntime/report_transforms.hpp>
#include <kerntime/trace_format.hpp>

#include "cli/commands.hpp"
#include "cli/idle_processes.hpp"
#include "cli/process_reports_directory.hpp"
#include "cli/run_environment.hpp"
#include "cli/run_id.hpp"
#include "cli/run_outputs.hpp"
#include "cli/signal_relay.hpp"
#include "io/diagnostic.hpp"
#include "io/file_writer.hpp"
#include "io/path_in_message.hpp"

extern char** environ;

namespace kerntime::cli {
namespace {

constexpr const char* kFooter =
    R"(The program runs unchanged: CUDA loads kerntime's injection library into every
process that starts CUDA (its children included), which records every kernel
through CUPTI, and NVTX ranges (torch.cuda.nvtx, nvtxRangePush) as scopes. Each
process writes its own report; at the end they are merged, each process a run of
every kernel it ran, and the per-kernel summary is printed on standard error.

A process that aborts or faults (SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL) leaves a
report naming the last kernel it launched, and saying which records may be missing.

Signals sent to kerntime (HUP, INT, QUIT, TERM, USR1, USR2, ALRM, WINCH, CONT, TSTP)
are passed on to the program; those the terminal sends reach it directly. The -o and
--timeline and --html paths are checked before the program starts; a file that cannot
be written at the end goes to $TMPDIR/kerntime-run-PID-report.json (-timeline.json,
-page.html) instead. --html writes the run's report page: one self-contained HTML file with
every kernel's distribution, where the GPU time went, the NVTX ranges and the copies.

Exit status: the program's own (128 + N when signal N ended it); 2 when kerntime
itself fails (no such program, bad options, an output path it cannot write, the
library cannot be found).)";

// Thrown out of run() when a signal ends kerntime after the program ended, so that the
// destructors (the temporary folder's) run before the signal ends the process.
struct EndedBySignal {
  int signal;
};

std::string directory_of_executable() {
  char path[PATH_MAX] = {};
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  if (length <= 0) return {};
  std::string text(path, static_cast<std::size_t>(length));
  const auto slash = text.rfind('/');
  return slash == std::string::npos ? std::string{} : text.substr(0, slash);
}

bool is_file(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

// KERNTIME_INJECT_LIBRARY, then ../lib beside the installed command, then the build tree.
std::string find_injection_library() {
  if (const char* chosen = std::getenv("KERNTIME_INJECT_LIBRARY"); chosen && *chosen) {
    if (!is_file(chosen)) {
      throw Error(std::string{"KERNTIME_INJECT_LIBRARY names "} + chosen + ", which is not a file");
    }
    return chosen;
  }
  const std::string here = directory_of_executable();
  for (const std::string& candidate :
       {here + "/../lib/libkerntime_inject.so", here + "/../lib64/libkerntime_inject.so",
        std::string{KERNTIME_INJECT_BUILD_PATH}}) {
    if (is_file(candidate)) {
      char resolved[PATH_MAX];
      return realpath(candidate.c_str(), resolved) != nullptr ? resolved : candidate;
    }
  }
  throw Error("cannot find libkerntime_inject.so (looked in " + here +
              "/../lib and the build tree); set KERNTIME_INJECT_LIBRARY to its path");
}

// libkerntime_preload.so, installed and built beside the injection library; "" (said once) when
// it is missing: then a process that leaves through _exit or exec keeps only its last checkpoint.
std::string find_preload_library(const std::string& injection_library) {
  const std::string path =
      injection_library.substr(0, injection_library.rfind('/') + 1) + "libkerntime_preload.so";
  if (is_file(path)) return path;
  fmt::print(stderr,
             "kerntime run: {} is missing: processes that leave through _exit or exec keep "
             "only their last checkpoint\n",
             path);
  return {};
}

std::vector<std::string> json_files(const std::string& directory) {
  std::vector<std::string> files;
  if (DIR* dir = opendir(directory.c_str())) {
    while (const dirent* item = readdir(dir)) {
      const std::string name = item->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) files.push_back(name);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Starts the program and waits for it, passing signals on; its exit status as the shell reports
// it, or throws when it cannot start.
int run_program(const std::vector<std::string>& command, const std::vector<std::string>& env,
                SignalRelay& relay) {
  int report_errno[2];
  if (pipe2(report_errno, O_CLOEXEC) != 0)
    throw Error("cannot create a pipe: " + std::string{std::strerror(errno)});
  std::vector<char*> argv;
  for (const std::string& word : command)
    argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const std::string& entry : env)
    envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);

  const pid_t child = fork();
  if (child < 0) {
    const int error = errno;
    close(report_errno[0]);
    close(report_errno[1]);
    throw Error("cannot start a process: " + std::string{std::strerror(error)});
  }
  if (child == 0) {
    relay.restore_in_child();
    close(report_errno[0]);
    execvpe(argv[0], argv.data(), envp.data());
    const int error = errno;
    if (write(report_errno[1], &error, sizeof error) < 0) _exit(127);
    _exit(127);
  }
  close(report_errno[1]);
  int exec_error = 0;
  ssize_t got = 0;
  do {
    got = read(report_errno[0], &exec_error, sizeof exec_error);
  } while (got < 0 && errno == EINTR);
  close(report_errno[0]);
  if (got == static_cast<ssize_t>(sizeof exec_error)) {
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
    throw Error("cannot run " + io::path_in_message(command.front()) + ": " +
                std::strerror(exec_error));
  }
  return relay.wait_for(child);
}

Trace timeline_of(const Report& report) {
  Trace trace;
  trace.kernels = report.trace->kernels;
  trace.memcpys = report.trace->memcpys;
  trace.memsets = report.trace->memsets;
  trace.strings = report.trace->strings;
  trace.warnings = report.warnings;
  return trace;
}

int run(RunOptions& o, NameStyle names) {
  if (o.command.empty())
    throw Error("no program to run; usage: kerntime run [options] -- PROGRAM [ARGS...]");
  const Format format = parse_format(o.format);
  const std::string library = find_injection_library();
  check_output_path("-o", o.output);
  check_output_path("--timeline", o.timeline);
  check_output_path("--html", o.html);
  const std::string run_id = new_run_id();

  // From before the folder exists to the end, no signal ends kerntime without removing it.
  SignalRelay relay;
  ProcessReportsDirectory directory(o.process_reports);
  std::vector<std::string> env =
      run_environment(environ, library, directory.path(), o, find_preload_library(library));
  set_run_id(env, run_id);
  const int status = run_program(o.command, env, relay);

  std::vector<Report> reports;
  std::vector<std::string> sources;
  std::size_t other_files = 0;
  for (const std::string& name : json_files(directory.path())) {
    // Reading a process report can take seconds: a signal that ends kerntime is heard between.
    if (const int signal = relay.take_terminating_signal()) throw EndedBySignal{signal};
    const std::string process = process_of_run(name, run_id);
    if (process.empty()) {
      ++other_files;
      continue;
    }
    try {
      reports.push_back(read_report_file(directory.path() + "/" + name));
      sources.push_back(process);
    } catch (const Error& error) {
      io::write_error_line("kerntime run: skipped a process report: ", error.what());
    }
  }
  if (other_files > 0) {
    io::write_error_line(
        "kerntime run: ",
        fmt::format("merged only this run's process reports (*.{}.json): skipped {} other .json "
                    "file{} in {}, another run's or not a process report",
                    run_id, other_files, other_files == 1 ? "" : "s",
                    io::path_in_message(directory.path())));
  }
  if (const int signal = relay.take_terminating_signal()) throw EndedBySignal{signal};

  // Helpers that started CUDA and launched nothing are listed once, not warned about each.
  const IdleProcesses idle = take_idle_processes(reports, sources);
  Report merged = merge_process_reports(reports, sources);
  // The library writes a report in every process that starts CUDA; none means none started it
  // with the library loaded.
  const std::string no_cuda_work =
      "no process of the program started CUDA with kerntime's library loaded: it never "
      "started CUDA, or a tool it ran in between (Nsight Systems, compute-sanitizer) "
      "replaced CUDA_INJECTION64_PATH";
  if (idle.all) merged.warnings.push_back(idle_processes_text(idle));
  if (reports.empty()) {
    merged.warnings.push_back("no CUDA work was recorded: " + no_cuda_work);
    io::write_error_line("kerntime run: ", "no CUDA work was recorded (" + no_cuda_work + ")");
  } else {
    Environment environment = current_environment();
    environment.host_name =
        merged.environment.host_name.substr(0, merged.environment.host_name.find(' '));
    merged.environment = environment;
    io::write_diagnostic(render_kernel_summary(merged, format, names));
    // Not a warning; --format json keeps standard error one JSON document.
    if (!idle.all && !idle.labels.empty() && format != Format::json) {
      io::write_error_line("kerntime run: ", idle_processes_text(idle));
    }
  }
  bool report_written = true;
  if (!o.output.empty()) {
    report_written = write_with_fallback(
        "-o", "report", o.output,
        [&merged](const std::string& path) { write_report_file(merged, path); });
  }
  if (!o.timeline.empty()) {
    if (merged.trace) {
      const Trace timeline = timeline_of(merged);
      write_with_fallback(
          "--timeline", "timeline", o.timeline,
          [&timeline](const std::string& path) { write_chrome_trace(timeline, path); });
    } else {
      io::write_error_line("kerntime run: ",
                           "--timeline " + io::path_in_message(o.timeline) + " was not written: " +
                               (reports.empty() ? no_cuda_work
                                                : std::string{"the process reports hold no "
                                                              "records"}));
    }
  }
  if (!o.html.empty()) {
    // The page of what was recorded, warnings included; even of nothing, which it says.
    const std::string page = render_html(merged, names);
    write_with_fallback(
        "--html", "page", o.html,
        [&page](const std::string& path) { io::write_file_atomically(path, page); }, ".html");
  }
  if (!report_written && directory.temporary()) {
    directory.keep();
    io::write_error_line("kerntime run: ", "the process reports are kept in " +
                                               io::path_in_message(directory.path()));
  }
  return status;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<RunOptions>();
  auto names = std::make_shared<std::string>("short");
  CLI::App* command = app.add_subcommand(
      "run", "Run a CUDA program unchanged and summarize every kernel it ran (GPU time, CUPTI)");
  command->footer(kFooter);
  command
      ->add_option("-o,--output", options->output,
                   "Write the merged report (kerntime-report/1 JSON) to FILE")
      ->type_name("FILE");
  command
      ->add_option("--timeline", options->timeline,
                   "Write a Chrome/Perfetto trace of the recorded kernels to FILE (the calls "
                   "that launch the first 2000 are recorded too, for its launch arrows)")
      ->type_name("FILE");
  command
      ->add_option("--html", options->html,
                   "Write the run's report page (one self-contained HTML file) to FILE")
      ->type_name("FILE");
  command
      ->add_option("--format", options->format,
                   "Format of the summary on standard error: table, md, csv, json")
      ->default_str("table");
  command
      ->add_option("--names", *names,
                   "Kernel and range names in the table and Markdown: short (fits 120 columns) or "
                   "full (every column)")
      ->check(CLI::IsMember({"short", "full"}))
      ->default_str("short");
  command->add_option("--capture-range", options->capture_range,
                      "none, cudaProfilerApi (between cudaProfilerStart and Stop) or nvtx:NAME");
  command->add_option("--delay", options->delay,
                      "Record nothing for this long after CUDA starts (e.g. 2s)");
  command->add_option("--duration", options->duration,
                      "Stop recording this long after the delay (e.g. 10s)");
  command->add_option("--kernel-filter", options->kernel_filter,
                      "Record only kernels whose demangled name matches REGEX");
  command
      ->add_option("--samples-per-kernel", options->samples_per_kernel,
                   "Durations kept per kernel for the report's samples (a uniform sample beyond)")
      ->default_str("10000");
  command
      ->add_option("--timeline-records", options->timeline_records,
                   "Records kept in full for the timeline and the report's trace section")
      ->default_str("20000");
  command
      ->add_option("--checkpoint", options->checkpoint,
                   "How often each process rewrites its report while running (0: only at exit)")
      ->default_str("2s");
  command
      ->add_option("--process-reports", options->process_reports,
                   "Keep each process's report in DIR (default: a temporary directory)")
      ->type_name("DIR");
  command->add_flag("--no-last-launch", options->no_last_launch,
                    "Do not keep each thread's last kernel launch (a callback in every launch): "
                    "a process that aborts or faults then cannot name it");
  command->add_flag(
      "--all-api-calls", options->all_api_calls,
      "Record every CUDA runtime and driver API call for the whole run, tagged "
      "with its NVTX ranges. Without it, API calls are recorded only with --timeline, "
      "and then only the first 2000 launches, copies and memsets (each recorded "
      "call costs the program host time)");
  command->add_option("command", options->command, "PROGRAM [ARGS...] (after --)")
      ->type_name("PROGRAM")
      ->required();
  command->positionals_at_end();
  command->callback([options, names, &exit_status] {
    try {
      check_run_options(*options);
      exit_status = run(*options, *names == "full" ? NameStyle::full : NameStyle::short_form);
    } catch (const Error& error) {
      io::write_error_line("kerntime run: ", error.what());
      exit_status = 2;
    } catch (const EndedBySignal& ended) {
      end_by_signal(ended.signal);
    }
  });
}

}  // namespace kerntime::cli
