// SPDX-License-Identifier: Apache-2.0
// The signal worker of `kerntime run`'s injection library, without CUDA: each test forks a
// process that starts the worker with jobs that write lines to a file, then ends it the way a
// program would (abort, a fault, SIGTERM), and checks the lines and the exit status.
#include "inject/signal_worker.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KERNTIME_UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define KERNTIME_UNDER_SANITIZER 1
#endif
#endif
#ifndef KERNTIME_UNDER_SANITIZER
#define KERNTIME_UNDER_SANITIZER 0
#endif

namespace kerntime::inject {
namespace {

class SignalWorker : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "kerntime_signal_worker_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::remove(path_.c_str());
  }

  // Appends a line; the jobs run on the worker thread, where this is allowed.
  static void append(const std::string& path, const std::string& line) {
    std::ofstream{path, std::ios::app} << line << "\n";
  }

  std::string lines() const {
    std::ifstream in{path_};
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  WorkerJobs writing_jobs() const {
    WorkerJobs jobs;
    const std::string path = path_;
    jobs.terminate = [path](int signal) { append(path, "terminate " + std::to_string(signal)); };
    jobs.crash_report = [path](int signal) { append(path, "crash " + std::to_string(signal)); };
    jobs.crash_final = [path](int signal) { append(path, "final " + std::to_string(signal)); };
    return jobs;
  }

  // Runs `body` in a child process; its wait status.
  static int in_child(const std::function<void()>& body) {
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child == 0) {
      body();
      _exit(0);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
    }
    return status;
  }

  // Runs `body` in a child process, which calls `ready` once it waits for the signal, then
  // sends the child SIGTERM. Its wait status; nullopt when it had not ended 20 s later (it is
  // killed) or ended before it was ready.
  static std::optional<int> status_after_sigterm(
      const std::function<void(const std::function<void()>& ready)>& body) {
    int ready[2];
    if (pipe(ready) != 0) return std::nullopt;
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child == 0) {
      close(ready[0]);
      body([&] {
        if (write(ready[1], "r", 1) != 1) _exit(4);
      });
      for (;;)
        pause();
    }
    close(ready[1]);
    char byte = 0;
    const bool started = read(ready[0], &byte, 1) == 1;
    close(ready[0]);
    int status = 0;
    if (!started) {
      waitpid(child, &status, 0);
      return std::nullopt;
    }
    kill(child, SIGTERM);
    const auto begin = std::chrono::steady_clock::now();
    while (waitpid(child, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() - begin > std::chrono::seconds(20)) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        return std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return status;
  }

  static bool ended_by(int status, int signal) {
    return WIFSIGNALED(status) && WTERMSIG(status) == signal;
  }

  std::string path_;
};

TEST_F(SignalWorker, AnAbortLeavesTheCrashReportThenTheFinalOneAndEndsWithSigabrt) {
  const int status = in_child([&] {
    if (!start_report_worker(writing_jobs(), {})) _exit(3);
    std::abort();
  });
  EXPECT_TRUE(ended_by(status, SIGABRT)) << status;
  EXPECT_EQ(lines(), "crash 6\nfinal 6\n");
}

// A sanitizer takes SIGSEGV, SIGBUS and SIGFPE for itself, before any handler of the program's:
// there the fault is a raised SIGILL, which takes the same path through kerntime's handler.
TEST_F(SignalWorker, AFaultToo) {
  const int fault = KERNTIME_UNDER_SANITIZER ? SIGILL : SIGSEGV;
  const int status = in_child([&] {
    if (!start_report_worker(writing_jobs(), {})) _exit(3);
#if KERNTIME_UNDER_SANITIZER
    raise(SIGILL);
#else
    volatile std::uintptr_t address = 8;  // the compiler cannot know it is unmapped
    *reinterpret_cast<volatile int*>(address) = 1;
#endif
  });
  EXPECT_TRUE(ended_by(status, fault)) << status;
  EXPECT_EQ(lines(), "crash " + std::to_string(fault) + "\nfinal " + std::to_string(fault) + "\n");
}

TEST_F(SignalWorker, TheProgramsOwnHandlerRunsFirstAndTheSignalStillEndsTheProcess) {
  static int fd = -1;
  const int status = in_child([&] {
    fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    struct sigaction own {};
    own.sa_handler = [](int) {
      if (write(fd, "own\n", 4) != 4) _exit(4);
    };
    sigemptyset(&own.sa_mask);
    sigaction(SIGABRT, &own, nullptr);
    if (!start_report_worker(writing_jobs(), {})) _exit(3);
    std::abort();
  });
  EXPECT_TRUE(ended_by(status, SIGABRT)) << status;
  EXPECT_EQ(lines(), "own\ncrash 6\nfinal 6\n");
}

TEST_F(SignalWorker, AHandlerThatDealsWithItsSignalLetsTheProgramCarryOnWithoutAReport) {
  static volatile sig_atomic_t handled = 0;
  const int status = in_child([&] {
    struct sigaction own {};
    own.sa_handler = [](int) { handled = 1; };
    sigemptyset(&own.sa_mask);
    sigaction(SIGSEGV, &own, nullptr);
    if (!start_report_worker(writing_jobs(), {})) _exit(3);
    raise(SIGSEGV);
    _exit(handled == 1 ? 0 : 5);
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(lines(), "");
}

TEST_F(SignalWorker, AFinalReportThatHangsDoesNotKeepTheProcessAlive) {
  const auto begin = std::chrono::steady_clock::now();
  const int status = in_child([&] {
    WorkerJobs jobs = writing_jobs();
    jobs.crash_final = [](int) { std::this_thread::sleep_for(std::chrono::seconds(60)); };
    WorkerLimits limits;
    limits.crash_final_ms = 300;
    if (!start_report_worker(std::move(jobs), limits)) _exit(3);
    std::abort();
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_TRUE(ended_by(status, SIGABRT)) << status;
  EXPECT_EQ(lines(), "crash 6\n");
  EXPECT_LT(seconds, 10.0);
}

TEST_F(SignalWorker, ACrashInsideTheWorkerEndsTheProcessWithoutWaitingForItself) {
  const auto begin = std::chrono::steady_clock::now();
  const int status = in_child([&] {
    WorkerJobs jobs = writing_jobs();
    jobs.crash_report = [](int) { std::abort(); };
    if (!start_report_worker(std::move(jobs), {})) _exit(3);
    std::abort();
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  EXPECT_TRUE(ended_by(status, SIGABRT)) << status;
  EXPECT_LT(seconds, 10.0);
}

TEST_F(SignalWorker, SigtermHasTheFinalReportWrittenThenEndsTheProcessWithIt) {
  const std::optional<int> status = status_after_sigterm([&](const std::function<void()>& ready) {
    if (!start_report_worker(writing_jobs(), {})) _exit(3);
    ready();
  });
  ASSERT_TRUE(status.has_value()) << "the process was not ready, or hung after SIGTERM";
  EXPECT_TRUE(ended_by(*status, SIGTERM)) << *status;
  EXPECT_EQ(lines(), "terminate 15\n");
}

// The thread SIGTERM interrupts may hold a lock the final report needs (a CUDA call's, whose
// lock the report's synchronization waits for). The handler lets it go after its hold, the call
// finishes and unlocks, and the worker writes the report and ends the process with the signal.
TEST_F(SignalWorker, SigtermInsideACallHoldingALockTheReportNeedsStillEndsWithTheReport) {
  const std::optional<int> status = status_after_sigterm([&](const std::function<void()>& ready) {
    static std::mutex driver_lock;  // stands for the CUDA driver's
    WorkerJobs jobs = writing_jobs();
    const std::string path = path_;
    jobs.terminate = [path](int signal) {
      std::lock_guard lock{driver_lock};
      append(path, "terminate " + std::to_string(signal));
    };
    WorkerLimits limits;
    limits.terminate_hold_ms = 300;
    if (!start_report_worker(std::move(jobs), limits)) _exit(3);
    // The "call", which the signal interrupts: it holds the lock for a second, whether the
    // signal comes while it waits or before (the parent kills as soon as it is ready).
    std::lock_guard lock{driver_lock};
    ready();
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    while (std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  });
  ASSERT_TRUE(status.has_value())
      << "the process hung: its handler waited for a report that waited for it";
  EXPECT_TRUE(ended_by(*status, SIGTERM)) << *status;
  EXPECT_EQ(lines(), "terminate 15\n");
}

// A final report that never ends (a synchronization with a kernel that never ends, a lock
// inside CUPTI) must not keep a process that SIGTERM asked to end alive: past
// terminate_final_ms a report is written from memory and the signal ends the process.
TEST_F(SignalWorker, SigtermWhoseFinalReportNeverEndsStillEndsTheProcessWithAReportFromMemory) {
  const std::optional<int> status = status_after_sigterm([&](const std::function<void()>& ready) {
    WorkerJobs jobs = writing_jobs();
    const std::string path = path_;
    jobs.terminate = [path](int signal) {
      append(path, "terminate " + std::to_string(signal));
      for (;;)
        pause();  // a flush that never returns
    };
    jobs.terminate_overdue = [path](int signal) {
      append(path, "overdue " + std::to_string(signal));
    };
    WorkerLimits limits;
    limits.terminate_hold_ms = 200;
    limits.terminate_final_ms = 500;
    if (!start_report_worker(std::move(jobs), limits)) _exit(3);
    ready();
  });
  ASSERT_TRUE(status.has_value())
      << "the process hung: its final report never ended, and nothing ended it";
  EXPECT_TRUE(ended_by(*status, SIGTERM)) << *status;
  EXPECT_EQ(lines(), "terminate 15\noverdue 15\n");
}

TEST_F(SignalWorker, AChildMadeByForkAloneDoesNotWakeItsParentsWorker) {
  const int status = in_child([&] {
    if (!start_report_worker(writing_jobs(), {})) _exit(3);
    const pid_t grandchild = fork();
    if (grandchild == 0) std::abort();
    int grandchild_status = 0;
    waitpid(grandchild, &grandchild_status, 0);
    if (!ended_by(grandchild_status, SIGABRT)) _exit(6);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop_report_worker();
    _exit(0);
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(lines(), "");
}

TEST_F(SignalWorker, CheckpointsRunAtTheirIntervalUntilStopped) {
  const int status = in_child([&] {
    static std::atomic<int> checkpoints{0};
    WorkerJobs jobs = writing_jobs();
    jobs.checkpoint = [] { ++checkpoints; };
    WorkerLimits limits;
    limits.checkpoint_interval_ms = 50;
    if (!start_report_worker(std::move(jobs), limits)) _exit(3);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    stop_report_worker();
    const int counted = checkpoints.load();
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    _exit(counted >= 3 && checkpoints.load() == counted ? 0 : 10);
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

// A checkpoint of 60 ms every 10 ms would keep the worker busy; the next waits 9 x 60 ms.
TEST_F(SignalWorker, CheckpointsTakeAtMostATenthOfTheTime) {
  const int status = in_child([&] {
    static std::atomic<int> checkpoints{0};
    WorkerJobs jobs = writing_jobs();
    jobs.checkpoint = [] {
      ++checkpoints;
      std::this_thread::sleep_for(std::chrono::milliseconds(60));
    };
    WorkerLimits limits;
    limits.checkpoint_interval_ms = 10;
    if (!start_report_worker(std::move(jobs), limits)) _exit(3);
    std::this_thread::sleep_for(std::chrono::milliseconds(450));
    stop_report_worker();
    _exit(10 + checkpoints.load());
  });
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 11);  // one checkpoint: before, six or seven
}

TEST_F(SignalWorker, TicksRunUntilTheyAnswerFalseBesideTheCheckpoints) {
  const int status = in_child([&] {
    static std::atomic<int> ticks{0};
    static std::atomic<int> checkpoints{0};
    WorkerJobs jobs = writing_jobs();
    jobs.tick = [] { return ++ticks < 4; };
    jobs.checkpoint = [] { ++checkpoints; };
    WorkerLimits limits;
    limits.tick_ms = 10;
    limits.checkpoint_interval_ms = 100;
    if (!start_report_worker(std::move(jobs), limits)) _exit(3);
    std::this_thread::sleep_for(std::chrono::milliseconds(450));
    stop_report_worker();
    _exit(ticks.load() == 4 && checkpoints.load() >= 3 && checkpoints.load() <= 5 ? 0 : 10);
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST_F(SignalWorker, AfterStopASignalEndsTheProcessAtOnce) {
  const int status = in_child([&] {
    if (!start_report_worker(writing_jobs(), {})) _exit(3);
    stop_report_worker();
    std::abort();
  });
  EXPECT_TRUE(ended_by(status, SIGABRT)) << status;
  EXPECT_EQ(lines(), "");
}

// A service that blocks its signals after CUDA (and so the worker) started, and takes them with
// sigwait(): a signal sent to the process reaches its sigwait, never the worker's thread, which
// would leave it to its default action (SIGUSR1's ends the process) or to kerntime's handler.
TEST_F(SignalWorker, AProgramsSigwaitGetsItsSignalsNotTheWorkersThread) {
  for (const int signal : {SIGUSR1, SIGTERM}) {
    const int status = in_child([&] {
      if (!start_report_worker(writing_jobs(), {})) _exit(3);
      sigset_t taken;
      sigemptyset(&taken);
      sigaddset(&taken, signal);
      pthread_sigmask(SIG_BLOCK, &taken, nullptr);
      kill(getpid(), signal);  // directed at the process, as from another one
      int got = 0;
      if (sigwait(&taken, &got) != 0) _exit(4);
      stop_report_worker();
      _exit(got == signal ? 0 : 5);
    });
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << signal << ": " << status;
  }
  EXPECT_EQ(lines(), "");
}

TEST(SignalNames, AreTheUsualOnes) {
  EXPECT_STREQ(signal_name(SIGABRT), "SIGABRT");
  EXPECT_STREQ(signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_STREQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_STREQ(signal_name(SIGUSR1), "a signal");
}

}  // namespace
}  // namespace kerntime::inject
