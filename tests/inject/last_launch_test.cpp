// SPDX-License-Identifier: Apache-2.0
// The last-launch slots a crash report reads, and what the report says about how a process
// ended: consistent reads while threads publish, the newest launch across threads, names cut
// to their slot, and every sentence of the end-of-process warnings.
#include "inject/last_launch.hpp"

#include <atomic>
#include <chrono>
#include <string>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "inject/end_of_process.hpp"
#include "inject/missing_records.hpp"

namespace kerntime::inject {
namespace {

pid_t this_thread() {
  return static_cast<pid_t>(syscall(SYS_gettid));
}

RecordAccount counts(std::uint64_t launches, std::uint64_t records, std::uint64_t dropped,
                     bool crashed) {
  RecordAccount account;
  account.launches = launches;
  account.kernel_records = records;
  account.dropped_records = dropped;
  account.crashed = crashed;
  return account;
}

bool contains(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(LaunchSlots, NoLaunchNoLastLaunch) {
  LaunchSlots slots;
  EXPECT_FALSE(slots.last().has_value());
}

TEST(LaunchSlots, KeepsTheLastLaunchOfTheThreadWithItsNameDeviceStreamAndThread) {
  LaunchSlots slots;
  static const char* alpha = "_Z16run_target_alphaPf";
  static const char* beta = "_Z15run_target_betaPf";
  const void* stream = reinterpret_cast<const void*>(std::uintptr_t{0x7f00dead0000});
  slots.publish(alpha, false, 0, 1, nullptr, false, 10);
  slots.publish(beta, false, 1, 3, stream, false, 11);
  const std::optional<LastLaunch> last = slots.last();
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->kernel, beta);
  EXPECT_FALSE(last->graph);
  EXPECT_EQ(last->device, 1);
  EXPECT_EQ(last->context_id, 3u);
  EXPECT_EQ(last->stream, std::uintptr_t{0x7f00dead0000});
  EXPECT_EQ(last->thread, this_thread());
  EXPECT_EQ(last->correlation_id, 11u);
  EXPECT_EQ(last->thread_launches, 2u);
  // The name pointer repeats: the text stays (it is copied once per pointer).
  slots.publish(beta, false, 1, 3, stream, false, 12);
  EXPECT_EQ(slots.last()->kernel, beta);
  slots.publish(alpha, false, 1, 3, stream, false, 13);
  EXPECT_EQ(slots.last()->kernel, alpha);
}

TEST(LaunchSlots, AGraphLaunchHasNoKernelName) {
  LaunchSlots slots;
  slots.publish("_Z1kv", false, 0, 1, nullptr, false, 1);
  slots.publish(nullptr, true, 0, 1, nullptr, true, 2);
  const LastLaunch last = *slots.last();
  EXPECT_TRUE(last.graph);
  EXPECT_TRUE(last.kernel.empty());
  EXPECT_TRUE(last.per_thread_stream);
  EXPECT_NE(describe_last_launch(last, "").find("a CUDA graph on device 0, the thread's default "
                                                "stream"),
            std::string::npos)
      << describe_last_launch(last, "");
}

TEST(LaunchSlots, ALongNameIsCutToItsSlotAndSaysSo) {
  LaunchSlots slots;
  const std::string name(300, 'k');
  slots.publish(name.c_str(), false, 0, 1, nullptr, false, 1);
  const LastLaunch last = *slots.last();
  EXPECT_EQ(last.kernel, std::string(LaunchSlots::kNameBytes - 1, 'k'));
  EXPECT_TRUE(last.name_truncated);
  EXPECT_NE(describe_last_launch(last, "").find("... (the name is cut after 255 bytes)"),
            std::string::npos);
  // Exactly 255 bytes fit.
  const std::string fits(LaunchSlots::kNameBytes - 1, 'f');
  slots.publish(fits.c_str(), false, 0, 1, nullptr, false, 2);
  EXPECT_EQ(slots.last()->kernel, fits);
  EXPECT_FALSE(slots.last()->name_truncated);
}

// The name is copied a word at a time and its tail alone: every length reads back byte for byte,
// a shorter name after a longer one included.
TEST(LaunchSlots, NamesOfEveryLengthReadBackExactly) {
  LaunchSlots slots;
  // All alive at once: a pointer seen before is taken for the same kernel.
  std::vector<std::string> names;
  for (std::size_t length = LaunchSlots::kNameBytes - 1; length >= 1; --length) {
    std::string name;
    for (std::size_t i = 0; i < length; ++i)
      name += static_cast<char>('!' + (i * 7 + length) % 90);
    names.push_back(std::move(name));
  }
  std::uint32_t correlation = 0;
  for (const std::string& name : names) {
    slots.publish(name.c_str(), false, 0, 1, nullptr, false, ++correlation);
    const LastLaunch last = *slots.last();
    ASSERT_EQ(last.kernel, name) << "length " << name.size();
    EXPECT_FALSE(last.name_truncated);
  }
}

// Every read while threads publish is one launch, never a mix of two: the name, the stream and
// the correlation id a writer stored together are read together.
TEST(LaunchSlots, ReadsAreConsistentWhileThreadsPublishAndTheNewestLaunchWins) {
  LaunchSlots slots;
  constexpr int kThreads = 4;
  constexpr int kLaunches = 20'000;
  std::vector<std::string> names;
  for (int n = 0; n < 64; ++n)
    names.push_back("kernel_" + std::to_string(n) + std::string(n * 3, 'x'));
  std::atomic<std::uint32_t> correlation{1};
  std::atomic<bool> done{false};
  std::atomic<int> reads{0};
  // The writers go on until the reader has read often enough (a loaded machine may not run it
  // at once), or for ten seconds at most.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&] {
      for (int i = 0;
           i < kLaunches || (reads.load() < 1000 && std::chrono::steady_clock::now() < until);
           ++i) {
        const std::uint32_t id = correlation.fetch_add(1);
        slots.publish(names[id % names.size()].c_str(), false, static_cast<int>(id % 8), id % 5,
                      reinterpret_cast<const void*>(std::uintptr_t{id}), false, id);
      }
    });
  }
  std::thread reader{[&] {
    while (!done.load()) {
      if (const std::optional<LastLaunch> last = slots.last()) {
        ++reads;
        ASSERT_EQ(last->kernel, names[last->correlation_id % names.size()]);
        ASSERT_EQ(last->stream, last->correlation_id);
        ASSERT_EQ(last->device, static_cast<int>(last->correlation_id % 8));
        ASSERT_EQ(last->context_id, last->correlation_id % 5);
      }
    }
  }};
  for (std::thread& writer : writers)
    writer.join();
  done = true;
  reader.join();
  EXPECT_GE(reads.load(), 1000);
  const LastLaunch last = *slots.last();
  EXPECT_EQ(last.correlation_id, correlation.load() - 1);  // the newest of all threads
  EXPECT_GE(last.thread_launches, static_cast<std::uint64_t>(kLaunches));
}

TEST(LaunchSlots, EachThreadKeepsItsRecentLaunchesWithTheirNvtxRanges) {
  LaunchSlots slots;
  static const char* alpha = "_Z16run_target_alphaPf";
  static const char* beta = "_Z15run_target_betaPf";
  const std::size_t total = LaunchSlots::kRecent + 4;
  for (std::uint32_t c = 1; c <= total; ++c)
    slots.publish(c % 2 == 0 ? beta : alpha, false, 0, 1, nullptr, false, c, c * 10);
  std::thread{[&] { slots.publish(alpha, false, 1, 2, nullptr, false, 100); }}.join();
  const std::vector<RecentLaunch> recent = slots.recent();
  ASSERT_EQ(recent.size(), LaunchSlots::kRecent + 1);
  // This thread's: the last kRecent, oldest first, numbered as the thread's launches.
  for (std::size_t k = 0; k < LaunchSlots::kRecent; ++k) {
    const RecentLaunch& launch = recent[k];
    const std::uint32_t correlation =
        static_cast<std::uint32_t>(total - LaunchSlots::kRecent + 1 + k);
    EXPECT_EQ(launch.launch.correlation_id, correlation);
    EXPECT_EQ(launch.launch.thread_launches, correlation);
    EXPECT_EQ(launch.launch.range_path, correlation * 10u);
    EXPECT_EQ(launch.launch.thread, this_thread());
    EXPECT_EQ(launch.name_pointer, correlation % 2 == 0 ? beta : alpha);
    // The text is kept for the newest launch's kernel, so for every launch of it.
    EXPECT_EQ(launch.launch.kernel, correlation % 2 == 0 ? std::string{beta} : std::string{});
    EXPECT_EQ(launch.newest, k + 1 == LaunchSlots::kRecent);
    EXPECT_EQ(launch.oldest_kept, k == 0);
  }
  EXPECT_EQ(recent.back().launch.correlation_id, 100u);
  EXPECT_TRUE(recent.back().newest);
  EXPECT_FALSE(recent.back().oldest_kept);  // its only launch
  EXPECT_EQ(recent.back().launch.kernel, alpha);
  EXPECT_EQ(slots.last()->correlation_id, 100u);
  EXPECT_EQ(slots.last()->range_path, 0u);
}

TEST(LaunchSlots, ThreadsPastTheSlotsAreCountedNotKept) {
  LaunchSlots slots;
  for (std::size_t t = 0; t < LaunchSlots::kThreads + 3; ++t) {
    std::thread{[&, t] {
      slots.publish("_Z1kv", false, 0, 1, nullptr, false, static_cast<std::uint32_t>(t + 1));
    }}.join();
  }
  EXPECT_EQ(slots.threads_left_out(), 3u);
  EXPECT_EQ(slots.last()->correlation_id, LaunchSlots::kThreads);
}

TEST(LastLaunchText, NamesTheKernelDemangledWithDeviceStreamAndThread) {
  LastLaunch launch;
  launch.kernel = "_Z15run_target_betaPf";
  launch.device = 0;
  launch.thread = 4242;
  launch.correlation_id = 345;
  launch.thread_launches = 101;
  EXPECT_EQ(describe_last_launch(launch, "run_target"),
            "run_target_beta(float*) on device 0, the default stream, from thread 4242 "
            "(run_target), its launch 101 (CUPTI correlation id 345)");
  launch.kernel = "triton_poi_fused_add_0";  // not mangled: as it is
  launch.device = -1;
  launch.stream = 0x2;
  EXPECT_EQ(describe_last_launch(launch, ""),
            "triton_poi_fused_add_0 on an unknown device, the per-thread default stream, from "
            "thread 4242, its launch 101 (CUPTI correlation id 345)");
  launch.stream = 0x5581c0ffee00;
  EXPECT_NE(describe_last_launch(launch, "").find("stream 0x5581c0ffee00"), std::string::npos);
  launch.ranges = "range \"step\"";
  EXPECT_NE(describe_last_launch(launch, "")
                .find("stream 0x5581c0ffee00, from thread 4242, inside NVTX range \"step\", its "
                      "launch 101"),
            std::string::npos)
      << describe_last_launch(launch, "");
}

TEST(LastLaunchText, ThreadNameComesFromProc) {
  EXPECT_FALSE(thread_name(this_thread()).empty());
  EXPECT_EQ(thread_name(999'999'999), "");
}

TEST(MissingRecords, RecordsThatCoverTheLaunchesSayNothing) {
  EXPECT_EQ(missing_records_warning(counts(100, 100, 0, false), "x"), "");
  EXPECT_EQ(missing_records_warning(counts(10, 150, 0, false), "x"), "");  // graphs: several each
  EXPECT_EQ(missing_records_warning(counts(100, 90, 10, false), "x"),
            "");  // dropped: counted apart
  EXPECT_EQ(missing_records_warning(counts(0, 0, 0, false), "x"), "");
}

TEST(MissingRecords, FewerRecordsThanLaunchesNameTheOtherClient) {
  EXPECT_EQ(missing_records_warning(counts(200, 80, 0, false), "likely PyTorch's profiler"),
            "CUPTI saw 200 kernel launches but delivered 80 kernel records: another CUPTI client "
            "in this process received the others (likely PyTorch's profiler); CUPTI gives "
            "activity records to one client, and the kernel summary covers only what kerntime "
            "received");
  EXPECT_NE(missing_records_warning(counts(1, 0, 0, false), "x")
                .find("CUPTI saw 1 kernel launch but delivered no kernel record"),
            std::string::npos);
  EXPECT_NE(missing_records_warning(counts(5, 1, 2, false), "x")
                .find("delivered 1 kernel record (and dropped 2)"),
            std::string::npos);
  // A process ending on a fatal signal had work in flight: no client is blamed.
  const std::string crashed = missing_records_warning(counts(5, 3, 0, true), "x");
  EXPECT_NE(crashed.find("had not finished"), std::string::npos) << crashed;
  EXPECT_EQ(crashed.find("another CUPTI client"), std::string::npos) << crashed;
}

// The final synchronization waited for every launch counted before it: records short of
// those are another client's doing; records short only of launches made after it began are
// work in flight, named, and no client is blamed.
TEST(MissingRecords, LaunchesAfterTheFinalSynchronizationAreInFlightNotAnotherClient) {
  RecordAccount account = counts(181041, 180975, 0, false);
  account.launches_before_final_flush = 180960;
  account.in_flight = "the last one launched: K on device 0";
  const std::string late = missing_records_warning(account, "likely PyTorch's profiler");
  EXPECT_EQ(late,
            "CUPTI saw 181041 kernel launches but delivered 180975 kernel records: the other 66 "
            "were launched after kerntime's final synchronization began (by a thread still "
            "running at exit or after the signal), so they were still in flight when the last "
            "records were read; the last one launched: K on device 0");
  account.launches_before_final_flush = 180975;  // exactly covered
  EXPECT_EQ(missing_records_warning(account, "x").find("another CUPTI client"), std::string::npos);
  account.kernel_records = 181040;
  account.in_flight.clear();
  EXPECT_NE(missing_records_warning(account, "x")
                .find(": the other 1 was launched after kerntime's final synchronization began "
                      "(by a thread still running at exit or after the signal), so it was still in "
                      "flight when the last records were read"),
            std::string::npos);
  // Every record came, but those of the kernels still running without timestamps: the same
  // launches are in flight, and named.
  RecordAccount untimed = counts(11864, 11864, 0, false);
  untimed.launches_before_final_flush = 11800;
  untimed.untimed_records = 2020;
  untimed.in_flight = "the last one launched: K on device 0";
  EXPECT_EQ(missing_records_warning(untimed, "x"),
            "CUPTI saw 11864 kernel launches and delivered a record of each, 2020 without "
            "timestamps: 64 were launched after kerntime's final synchronization began (by a "
            "thread still running at exit or after the signal), so they were still in flight "
            "when the last records were read; the last one launched: K on device 0");
  untimed.launches_before_final_flush = 11864;  // none after: the timestamps went otherwise
  EXPECT_EQ(missing_records_warning(untimed, "x"), "");
  untimed.launches_before_final_flush = 11800;
  untimed.untimed_records = 0;
  EXPECT_EQ(missing_records_warning(untimed, "x"), "");

  // Short of launches made before the synchronization: records of finished work went elsewhere.
  RecordAccount taken = counts(200, 80, 0, false);
  taken.launches_before_final_flush = 190;
  EXPECT_NE(missing_records_warning(taken, "likely PyTorch's profiler")
                .find("another CUPTI client in this process received the others (likely "
                      "PyTorch's profiler)"),
            std::string::npos);
}

TEST(MissingRecords, AGpuFaultExplainsMissingRecordsWithoutBlamingAClient) {
  RecordAccount account = counts(12, 1, 0, false);
  account.launches_before_final_flush = 12;
  account.gpu_fault = true;
  EXPECT_EQ(missing_records_warning(account, "x"),
            "CUPTI saw 12 kernel launches but delivered 1 kernel record: the GPU faulted, so the "
            "kernels after the fault never finished, and records CUPTI still held on the GPU "
            "were lost");
}

TEST(MissingRecords, InFlightNamesEachThreadsLastLaunchAfterTheSynchronizationBegan) {
  LaunchSlots slots;
  slots.publish("_Z16run_target_alphaPf", false, 0, 1, nullptr, false, 10, 3);
  slots.publish("_Z16run_target_alphaPf", false, 0, 1, nullptr, false, 21, 3);
  const auto ranges = [](std::uint64_t path) {
    return path == 3 ? std::string{"range \"step\""} : std::string{};
  };
  const auto names = [](pid_t) { return std::string{"pt_autograd_0"}; };
  EXPECT_EQ(in_flight_launches(slots.recent(), 21, names, ranges), "");
  const std::string one = in_flight_launches(slots.recent(), 20, names, ranges);
  EXPECT_EQ(one,
            "the last one launched: run_target_alpha(float*) on device 0, the default "
            "stream, from thread " +
                std::to_string(this_thread()) +
                " (pt_autograd_0), inside NVTX range \"step\", its launch 2 (CUPTI "
                "correlation id 21)");
  std::thread{[&] {
    slots.publish("_Z15run_target_betaPf", false, 0, 1, nullptr, false, 22);
  }}.join();
  const std::string two = in_flight_launches(slots.recent(), 20, names, ranges);
  EXPECT_EQ(two.rfind("the last launched by each of the 2 threads: run_target_beta(float*)", 0), 0u)
      << two;
  EXPECT_NE(two.find("; run_target_alpha(float*)"), std::string::npos) << two;
}

Report report_with_counts(std::uint64_t kernels, std::uint64_t memcpys) {
  Report report;
  report.trace.emplace();
  report.trace->counts.kernels = kernels;
  report.trace->counts.memcpys = memcpys;
  return report;
}

TEST(EndOfProcess, ACrashReportNamesTheSignalTheMissingRecordsAndTheLastLaunch) {
  ProcessEnd end;
  end.kind = ReportKind::crash;
  end.signal = 6;
  end.fatal = true;
  end.launch_sites_watched = true;
  LastLaunch launch;
  launch.kernel = "_Z15run_target_betaPf";
  launch.device = 0;
  launch.thread = 77;
  launch.thread_launches = 3;
  launch.correlation_id = 9;
  end.last_launch = launch;
  end.last_launch_thread = "worker";
  Report report = report_with_counts(2, 0);
  add_end_warnings(report, end);
  ASSERT_EQ(report.warnings.size(), 2u);
  EXPECT_EQ(report.warnings[0],
            "the process was ended by signal 6 (SIGABRT), an abort or a fault, before it "
            "finished: this report was written from memory right after the signal, without "
            "calling CUDA or CUPTI, so records CUPTI still held may be missing");
  EXPECT_EQ(report.warnings[1],
            "the last kernel it launched: run_target_beta(float*) on device 0, the default "
            "stream, from thread 77 (worker), its launch 3 (CUPTI correlation id 9)");

  // The final report after the signal: CUPTI gave what it could.
  end.kind = ReportKind::final;
  end.signal = 11;
  end.records = counts(4, 3, 0, true);
  Report final_report = report_with_counts(3, 0);
  add_end_warnings(final_report, end);
  EXPECT_TRUE(contains(final_report.warnings, "signal 11 (SIGSEGV)"));
  EXPECT_TRUE(contains(final_report.warnings, "kernels still running then may be missing"));
  EXPECT_TRUE(contains(final_report.warnings, "the last kernel it launched: run_target_beta"));
  EXPECT_TRUE(contains(final_report.warnings, "CUPTI saw 4 kernel launches but delivered 3"));
}

// torch.profiler inside `kerntime run`: CUPTI refuses it the subscriber slot kerntime holds, so
// its trace has no GPU activity; every report of the process says so, naming it.
TEST(EndOfProcess, AClientRefusedCuptisSubscriberSlotIsNamedInEveryReport) {
  for (const ReportKind kind : {ReportKind::checkpoint, ReportKind::final}) {
    ProcessEnd end;
    end.kind = kind;
    end.refused_subscribers = 2;
    end.refused_client = "PyTorch's profiler (torch.profiler, Kineto)";
    Report report = report_with_counts(5, 0);
    add_end_warnings(report, end);
    EXPECT_TRUE(contains(report.warnings,
                         "PyTorch's profiler (torch.profiler, Kineto) in this process asked "
                         "CUPTI for its subscriber slot and was refused (2 calls): `kerntime "
                         "run` holds that one slot from the start of CUDA, so that client "
                         "recorded no GPU activity, while this report has every kernel; to "
                         "profile with it instead, run the program without `kerntime run`"));
  }
  ProcessEnd none;
  Report report = report_with_counts(5, 0);
  add_end_warnings(report, none);
  EXPECT_FALSE(contains(report.warnings, "subscriber slot"));
}

TEST(EndOfProcess, ACrashWithoutALaunchOrWithoutTheWatchSaysWhich) {
  ProcessEnd end;
  end.kind = ReportKind::crash;
  end.signal = 6;
  end.fatal = true;
  end.launch_sites_watched = true;
  Report report = report_with_counts(0, 0);
  add_end_warnings(report, end);
  EXPECT_TRUE(contains(report.warnings, "it had launched no kernel"));
  end.launch_sites_watched = false;
  Report unwatched = report_with_counts(0, 0);
  add_end_warnings(unwatched, end);
  EXPECT_TRUE(contains(unwatched.warnings, "--no-last-launch"));
}

TEST(EndOfProcess, AReportFromMemoryAfterAnOverdueFinalOneSaysWhy) {
  ProcessEnd end;
  end.kind = ReportKind::crash;
  end.signal = 15;
  end.final_overdue_ms = 30'000;
  Report report = report_with_counts(5, 0);
  add_end_warnings(report, end);
  ASSERT_EQ(report.warnings.size(), 2u);
  EXPECT_EQ(report.warnings[0],
            "the process was stopped by signal 15 (SIGTERM); what it recorded up to then is here");
  EXPECT_EQ(report.warnings[1],
            "the report after the signal was not done 30 s later (a CUDA or CUPTI call did not "
            "return: a kernel that never ends, or a lock inside CUPTI): this report was written "
            "from memory, without the records CUPTI still held");
}

TEST(EndOfProcess, CheckpointsTerminatingSignalsAndCleanExits) {
  ProcessEnd checkpoint;
  checkpoint.kind = ReportKind::checkpoint;
  Report a = report_with_counts(5, 0);
  add_end_warnings(a, checkpoint);
  ASSERT_EQ(a.warnings.size(), 1u);
  EXPECT_NE(a.warnings[0].find("this is its last checkpoint"), std::string::npos);

  ProcessEnd terminated;
  terminated.signal = 15;
  terminated.records = counts(5, 5, 0, false);
  Report b = report_with_counts(5, 0);
  add_end_warnings(b, terminated);
  ASSERT_EQ(b.warnings.size(), 1u);
  EXPECT_EQ(b.warnings[0],
            "the process was stopped by signal 15 (SIGTERM); what it recorded up to then is here");

  ProcessEnd clean;
  clean.records = counts(5, 5, 0, false);
  Report c = report_with_counts(5, 0);
  add_end_warnings(c, clean);
  EXPECT_TRUE(c.warnings.empty());
}

TEST(EndOfProcess, NoCudaWorkIsSaidOnlyWhenNothingRanAndNothingWasTaken) {
  ProcessEnd idle;
  idle.records = counts(0, 0, 0, false);
  Report nothing = report_with_counts(0, 0);
  add_end_warnings(nothing, idle);
  ASSERT_EQ(nothing.warnings.size(), 1u);
  EXPECT_EQ(nothing.warnings[0],
            "no CUDA work was recorded: the process started CUDA but launched no kernel, copy "
            "or memset");
  Report copies = report_with_counts(0, 3);
  add_end_warnings(copies, idle);
  EXPECT_TRUE(copies.warnings.empty());
  // Launches whose records went to another client: that is said, not "no CUDA work".
  ProcessEnd starved;
  starved.records = counts(7, 0, 0, false);
  starved.other_client = "the other one";
  Report taken = report_with_counts(0, 0);
  add_end_warnings(taken, starved);
  ASSERT_EQ(taken.warnings.size(), 1u);
  EXPECT_NE(taken.warnings[0].find("(the other one)"), std::string::npos);
}

}  // namespace
}  // namespace kerntime::inject
