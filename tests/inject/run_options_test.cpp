// SPDX-License-Identifier: Apache-2.0
// `kerntime run`'s option values, however long: durations parsed without a regex, the kernel
// filter bounded and matched breadth-first on both sides (the command and the injection
// library), each refusal one line naming the option. No GPU.
#include <algorithm>
#include <functional>
#include <map>
#include <pthread.h>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <kerntime/error.hpp>

#include "cli/run_environment.hpp"
#include "inject/run_recorder.hpp"
#include "inject/run_settings.hpp"
#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

std::string kerntime_run(const std::string& rest) {
  return std::string{KERNTIME_CLI} + " run " + rest;
}

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// std::regex matched a duration by recursion, once per character: about 26,000 characters
// overflowed the stack (SIGSEGV), and 400 digits overflowed std::stod ("unexpected failure:
// stod"). Each is now a one-line refusal that names the option and does not repeat the value.
TEST(RunOptions, ALongDurationIsRefusedNamingTheOption) {
  const std::string digits(26'000, '1');
  for (const std::string option : {"--delay", "--duration", "--checkpoint"}) {
    const auto result = run_command(kerntime_run(option + " " + digits + " -- true"));
    EXPECT_EQ(result.exit_status, 2) << option;
    EXPECT_EQ(result.err, "kerntime run: " + option +
                              " is 26000 characters long, not a duration: write a number with a "
                              "unit, such as 500ms, 2s or 1.5min\n")
        << option;
  }
  const auto huge = run_command(kerntime_run("--delay " + std::string(400, '9') + " -- true"));
  EXPECT_EQ(huge.exit_status, 2);
  EXPECT_EQ(huge.err,
            "kerntime run: --delay is 400 characters long, not a duration: write a number with a "
            "unit, such as 500ms, 2s or 1.5min\n");
  const auto long_number =
      run_command(kerntime_run("--duration " + std::string(60, '9') + "ms -- true"));
  EXPECT_EQ(long_number.exit_status, 2);
  EXPECT_EQ(long_number.err, "kerntime run: --duration '" + std::string(60, '9') +
                                 "ms' is longer than kerntime can count\n");
}

// The grammar the regex had: spaces, a decimal number, spaces, an optional unit, spaces.
TEST(RunOptions, DurationsReadAsBefore) {
  const std::map<std::string, std::uint64_t> good{{"0", 0},
                                                  {"2s", 2'000'000'000},
                                                  {"2", 2'000'000'000},
                                                  {"500ms", 500'000'000},
                                                  {" 500 ms ", 500'000'000},
                                                  {"1.5min", 90'000'000'000},
                                                  {".5s", 500'000'000},
                                                  {"3.", 3'000'000'000},
                                                  {"10us", 10'000},
                                                  {"7ns", 7},
                                                  {"0.1s", 100'000'000},
                                                  {"\t2s\n", 2'000'000'000}};
  for (const auto& [text, ns] : good) {
    EXPECT_EQ(cli::parse_run_duration("--delay", text), ns) << "'" << text << "'";
  }
  for (const std::string bad : {"", " ", "s", ".", "2x", "1e3s", "-1s", "+1s", "1..2s", "1.2.3s",
                                "2 s s", "2sec", "2S", "0x10s", "2 5s", "ms2"}) {
    EXPECT_THROW(cli::parse_run_duration("--delay", bad), Error) << "'" << bad << "'";
  }
  EXPECT_EQ(message_of([] { cli::parse_run_duration("--delay", "2x"); }),
            "--delay '2x' is not a duration: write a number with a unit, such as 500ms, 2s or "
            "1.5min");
  // A control character would split the message: the value is quoted as JSON instead.
  EXPECT_EQ(message_of([] { cli::parse_run_duration("--duration", "1\n2"); }),
            "--duration \"1\\n2\" is not a duration: write a number with a unit, such as 500ms, "
            "2s or 1.5min");
}

// The library takes the checkpoint in whole milliseconds up to a day: a value beyond it was
// passed on and refused inside the program, one under a millisecond silently became 0 (only at
// exit).
TEST(RunOptions, TheCheckpointIsOneTheLibraryTakes) {
  const auto environment_of = [](const cli::RunOptions& options) {
    std::map<std::string, std::string> values;
    for (const std::string& entry : cli::run_environment(nullptr, "/lib.so", "/tmp/x", options)) {
      values[entry.substr(0, entry.find('='))] = entry.substr(entry.find('=') + 1);
    }
    return values;
  };
  for (const std::string accepted : {"0", "1ms", "2s", "1440min"}) {
    cli::RunOptions options;
    options.command = {"true"};
    options.checkpoint = accepted;
    EXPECT_NO_THROW(cli::check_run_options(options)) << accepted;
    const auto values = environment_of(options);
    EXPECT_NO_THROW(inject::read_run_settings([&](const char* name) -> const char* {
      const auto it = values.find(name);
      return it == values.end() ? nullptr : it->second.c_str();
    })) << accepted;
  }
  for (const std::string refused : {"1441min", "0.5ms", "10us"}) {
    cli::RunOptions options;
    options.command = {"true"};
    options.checkpoint = refused;
    EXPECT_EQ(message_of([&] { cli::check_run_options(options); }),
              "--checkpoint must be 0 (only at exit) or from 1ms to 1440min (a day)")
        << refused;
  }
}

// std::regex compiles a pattern by recursion: 100,000 characters overflowed the stack of the
// command (and would have, in every process of the program, that of the injection library).
TEST(RunOptions, ALongKernelFilterIsRefusedNamingTheOption) {
  const auto result =
      run_command(kerntime_run("--kernel-filter " + std::string(100'000, 'a') + " -- true"));
  EXPECT_EQ(result.exit_status, 2);
  EXPECT_EQ(result.err,
            "kerntime run: --kernel-filter is 100000 characters long; the limit is 1000 "
            "characters\n");
  const std::map<std::string, std::string> env{
      {"KERNTIME_RUN_DIR", "/tmp/x"}, {"KERNTIME_RUN_KERNEL_FILTER", std::string(100'000, 'a')}};
  const auto lookup = [&](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  EXPECT_EQ(message_of([&] { inject::read_run_settings(lookup); }),
            "KERNTIME_RUN_KERNEL_FILTER is 100000 characters long; the limit is 1000 characters; "
            "it is set by kerntime run, which should not happen: please report it");
}

// The command refuses what the library would: the same length limit and the same grammar.
TEST(RunOptions, TheCommandAndTheLibraryAcceptTheSameFilters) {
  const std::vector<std::pair<std::string, bool>> filters{
      {std::string(1000, 'a'), true},
      {std::string(1001, 'a'), false},
      {"^(gemm|gemv)_.*f16", true},
      {"([", false},
      {"(sgemm)\\1", false},  // a back-reference: the breadth-first matcher has none
      {"void at::native::.*<float>", true}};
  for (const auto& [filter, accepted] : filters) {
    cli::RunOptions options;
    options.command = {"true"};
    options.kernel_filter = filter;
    bool command_accepts = true;
    try {
      cli::check_run_options(options);
    } catch (const Error&) {
      command_accepts = false;
    }
    const std::map<std::string, std::string> env{{"KERNTIME_RUN_DIR", "/tmp/x"},
                                                 {"KERNTIME_RUN_KERNEL_FILTER", filter}};
    bool library_accepts = true;
    try {
      inject::read_run_settings([&](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      });
    } catch (const Error&) {
      library_accepts = false;
    }
    EXPECT_EQ(command_accepts, accepted) << filter.substr(0, 40);
    EXPECT_EQ(library_accepts, accepted) << filter.substr(0, 40);
  }
  cli::RunOptions options;
  options.command = {"true"};
  options.kernel_filter = "(sgemm)\\1";
  EXPECT_EQ(message_of([&] { cli::check_run_options(options); }),
            "--kernel-filter '(sgemm)\\1' is not a regular expression kerntime can use "
            "(back-references such as \\1 are not supported)");
}

trace::RawKernel kernel_named(const std::string& name, std::uint64_t start) {
  trace::RawKernel kernel;
  kernel.name = name.c_str();  // the recorder copies it
  kernel.start_ns = start;
  kernel.end_ns = start + 100;
  return kernel;
}

struct FilterRun {
  std::string filter;
  std::vector<std::string> names;
  std::vector<std::string> recorded;
};

void* record_filtered(void* argument) {
  auto* run = static_cast<FilterRun*>(argument);
  inject::RunSettings settings;
  settings.output_directory = "/tmp";
  settings.kernel_filter = run->filter;
  inject::RunRecorder recorder(settings);
  trace::RecordBatch batch;
  std::uint64_t start = 1000;
  for (const std::string& name : run->names) {
    batch.kernels.push_back(kernel_named(name, start));
    start += 1000;
  }
  recorder.append(std::move(batch));
  const Report report = recorder.report();
  for (const auto& row : report.trace->kernel_summary)
    run->recorded.push_back(row.name);
  return nullptr;
}

// The recorder matches the filter on the thread that delivers CUPTI's records. The default
// std::regex matcher recursed once per character of the name: a PyTorch kernel's demangled name
// of 4,000 characters took more than 1 MiB of stack for `.*softmax`. Matched breadth-first, it
// takes stack in proportion to the pattern: here on a thread of 256 KiB.
TEST(RunOptions, ALongKernelNameIsMatchedOnASmallStack) {
  FilterRun run;
  run.filter = ".*softmax";
  const std::string templated = "void at::native::(anonymous namespace)::cunn_SoftMaxForward<" +
                                std::string(4000, 'x') + ">(float*, const float*, int)";
  run.names = {templated, "void at::native::softmax_warp_forward<" + std::string(4000, 'y') + ">",
               "ampere_sgemm_128x64_nn"};
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, 256 * 1024), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attributes, &record_filtered, &run), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attributes);
  ASSERT_EQ(run.recorded.size(), 1u);
  EXPECT_EQ(run.recorded.front().substr(0, 38), "void at::native::softmax_warp_forward<");
}

// The recorder matches the whole name against `[\s\S]*(?:FILTER)[\s\S]*`: the same kernels
// as a search for FILTER anywhere in the name, anchors and alternatives included.
TEST(RunOptions, TheKernelFilterFindsAMatchAnywhereInTheName) {
  const std::vector<std::string> names{"ampere_sgemm_128x64_nn", "void softmax_warp<float>(int)",
                                       "elementwise_kernel\n<add>"};
  const std::map<std::string, std::vector<std::string>> expected{
      {"gemm", {"ampere_sgemm_128x64_nn"}},
      {"^ampere", {"ampere_sgemm_128x64_nn"}},
      {"^sgemm", {}},
      {"_nn$", {"ampere_sgemm_128x64_nn"}},
      {"float>\\(int\\)$", {"void softmax_warp<float>(int)"}},
      {"gemm|softmax", {"ampere_sgemm_128x64_nn", "void softmax_warp<float>(int)"}},
      {"x64|add", {"ampere_sgemm_128x64_nn", "elementwise_kernel\n<add>"}},
      {"kernel.<add", {}},  // `.` is any character but a line break, as in a search
      {"kernel[\\s\\S]<add", {"elementwise_kernel\n<add>"}},
      {"(?=.*warp)void", {"void softmax_warp<float>(int)"}}};
  for (const auto& [filter, selected] : expected) {
    FilterRun run;
    run.filter = filter;
    run.names = names;
    record_filtered(&run);
    std::sort(run.recorded.begin(), run.recorded.end());
    EXPECT_EQ(run.recorded, selected) << filter;
    for (const std::string& name : names) {
      const bool searched = std::regex_search(name, std::regex{filter});
      const bool listed = std::find(selected.begin(), selected.end(), name) != selected.end();
      EXPECT_EQ(searched, listed) << filter << " on " << name;
    }
  }
}

}  // namespace
}  // namespace kerntime
