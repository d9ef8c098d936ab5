// SPDX-License-Identifier: Apache-2.0
// The ends of a process that run no atexit handler, without CUDA: end_hooks_helper starts the
// report worker and the end hooks with jobs that write lines, preloaded with
// libkerntime_preload.so as `kerntime run` does, and ends in each way on the main thread and
// on another one. The lines say which report was written, and the exit status that the end's
// effect was kept.
#include "inject/end_hooks.hpp"

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime::inject {
namespace {

struct Ended {
  int status = -1;  // as the shell says: 128 + N for signal N
  std::string lines;
  std::string err;
  double seconds = 0;
};

class EndHooks : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "kerntime_end_hooks_" + std::to_string(getpid()) + "_" +
            std::to_string(++runs_);
    std::remove(path_.c_str());
  }
  void TearDown() override { std::remove(path_.c_str()); }

  // Runs the helper in MODE on this test's thread kind; `env` goes before it.
  Ended end(const std::string& mode, const std::string& env = "", bool preload = true,
            int limit_ms = 10'000) {
    // The sanitizers' runtimes want to be loaded first; the preload is plain libc code.
    std::string command = "{ ASAN_OPTIONS=\"${ASAN_OPTIONS}:verify_asan_link_order=0\" " + env;
    if (preload) command += " LD_PRELOAD=" + std::string{KERNTIME_PRELOAD};
    command += " timeout 20 " + std::string{KERNTIME_END_HOOKS_HELPER} + " " + path_ + " " + mode +
               " " + GetParam() + " " + std::to_string(limit_ms) + "; echo \"status $?\"; }";
    const auto begin = std::chrono::steady_clock::now();
    const auto result = testing::run_command(command);
    Ended ended;
    ended.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    const auto at = result.out.rfind("status ");
    if (at != std::string::npos) ended.status = std::stoi(result.out.substr(at + 7));
    std::ifstream in{path_};
    std::stringstream text;
    text << in.rdbuf();
    ended.lines = text.str();
    ended.err = result.err;
    return ended;
  }

  static constexpr const char* kHooked = "hooks installed, _exit interposed\n";
  std::string path_;
  static inline int runs_ = 0;
};

TEST_P(EndHooks, ExitLeavesTheFinalReportWrittenByTheWorker) {
  for (const auto& [mode, status] :
       {std::pair{"_exit", 3}, std::pair{"_Exit", 4}, std::pair{"quick_exit", 5}}) {
    const Ended ended = end(mode);
    EXPECT_EQ(ended.status, status) << mode << ": " << ended.err;
    EXPECT_EQ(ended.lines, std::string{kHooked} + "leave\n") << mode << ": " << ended.err;
    std::remove(path_.c_str());
  }
}

TEST_P(EndHooks, WithoutThePreloadNothingIsWrittenAtExit) {
  const Ended ended = end("_exit", "", false);
  EXPECT_EQ(ended.status, 3);
  EXPECT_EQ(ended.lines, "hooks absent, _exit libc's\n") << ended.err;
}

TEST_P(EndHooks, ExitRunsTheAtexitHandlerAndNoHook) {
  const Ended ended = end("exit");
  EXPECT_EQ(ended.status, 6);
  EXPECT_EQ(ended.lines, std::string{kHooked} + "atexit\n") << ended.err;
}

TEST_P(EndHooks, AnExecWritesACompleteReportFirst) {
  const Ended ended = end("exec");
  EXPECT_EQ(ended.status, 7);  // the new program's
  EXPECT_EQ(ended.lines, std::string{kHooked} + "snapshot 0\n") << ended.err;
}

TEST_P(EndHooks, AFailedExecLetsTheProgramGoOnToItsOwnEnd) {
  const Ended ended = end("exec_fails");
  EXPECT_EQ(ended.status, 8);
  EXPECT_EQ(ended.lines,
            std::string{kHooked} + "snapshot 0\nexec failed: No such file or directory\nleave\n")
      << ended.err;
}

TEST_P(EndHooks, AForkChildLeavingThroughExitWritesNothing) {
  const Ended ended = end("fork");
  EXPECT_EQ(ended.status, 10);
  EXPECT_EQ(ended.lines, std::string{kHooked} + "child status 0\nleave\n") << ended.err;
}

TEST_P(EndHooks, AVforkChildThatExecsWritesNothing) {
  const Ended ended = end("vfork");
  EXPECT_EQ(ended.status, 11);
  EXPECT_EQ(ended.lines, std::string{kHooked} + "child status 0\nleave\n") << ended.err;
}

TEST_P(EndHooks, ASignalSentToItselfAtTheDefaultDispositionWritesFirst) {
  const Ended ended = end("term_default");
  EXPECT_EQ(ended.status, 143);
  EXPECT_EQ(ended.lines, std::string{kHooked} + "snapshot 15\n") << ended.err;
}

TEST_P(EndHooks, AHandlerThatRestoresTheDefaultAndSendsItAgain) {
  const Ended ended = end("term_handler");
  EXPECT_EQ(ended.status, 143);
  EXPECT_EQ(ended.lines, std::string{kHooked} + "snapshot 15\n") << ended.err;
}

TEST_P(EndHooks, AHandlerThatLeavesThroughExit) {
  const Ended ended = end("handler_leaves");
  EXPECT_EQ(ended.status, 9);
  EXPECT_EQ(ended.lines, std::string{kHooked} + "leave\n") << ended.err;
}

TEST_P(EndHooks, ASignalKerntimeHandlesItselfIsNotWrittenTwice) {
  const Ended ended = end("term_kerntime");
  EXPECT_EQ(ended.status, 143);
  EXPECT_EQ(ended.lines, std::string{kHooked} + "terminate 15\n") << ended.err;
}

// exit() on another thread is writing the final report (slowly) when _exit comes: the leaving
// thread waits for it instead of cutting it short.
TEST_P(EndHooks, ExitWaitsForAReportAnotherThreadIsWriting) {
  const Ended ended = end("exit_while_leaving", "END_HOOKS_SLOW_FINAL=1");
  EXPECT_TRUE(ended.status == 12 || ended.status == 13) << ended.status;
  EXPECT_EQ(ended.lines, std::string{kHooked} + "atexit\n") << ended.err;
}

// A signal at the default disposition while exit() on another thread writes the report (kerntime's
// handler, once its worker is gone, lets the signal end the process at once).
TEST_P(EndHooks, ASignalWaitsForAReportAnotherThreadIsWriting) {
  const Ended ended = end("signal_while_exiting", "END_HOOKS_SLOW_FINAL=1");
  EXPECT_TRUE(ended.status == 14 || ended.status == 143) << ended.status;
  EXPECT_EQ(ended.lines, std::string{kHooked} + "atexit\n") << ended.err;
}

TEST_P(EndHooks, AHungReportDoesNotKeepTheProcessAlive) {
  const Ended ended = end("_exit", "END_HOOKS_HANG=1", true, 300);
  EXPECT_EQ(ended.status, 3);
  EXPECT_LT(ended.seconds, 5.0);
  EXPECT_EQ(ended.lines, kHooked);
  EXPECT_NE(ended.err.find("left before its report was written (waited 300 ms); its last "
                           "checkpoint remains"),
            std::string::npos)
      << ended.err;
}

INSTANTIATE_TEST_SUITE_P(Threads, EndHooks, ::testing::Values("main", "thread"),
                         [](const auto& info) { return std::string{info.param}; });

TEST(EndHooksSignals, OnlySignalsSentToEndTheProcessAreTakenForEnds) {
  for (const int signal : {SIGHUP, SIGINT, SIGKILL, SIGTERM})
    EXPECT_TRUE(is_ending_signal(signal)) << signal;
  for (const int signal : {SIGUSR1, SIGUSR2, SIGALRM, SIGABRT, SIGSEGV, SIGCHLD, SIGSTOP, SIGCONT,
                           SIGWINCH, SIGQUIT, 0})
    EXPECT_FALSE(is_ending_signal(signal)) << signal;
}

}  // namespace
}  // namespace kerntime::inject
