// SPDX-License-Identifier: Apache-2.0
#include "inject/missing_records.hpp"

#include <algorithm>

namespace kerntime::inject {

namespace {

// Every launch has its record, but those of kernels launched after the final synchronization
// began may come without timestamps, when CUPTI flushes while they run: in flight too, and
// named the same way.
std::string untimed_in_flight(const RecordAccount& account) {
  if (account.untimed_records == 0 || account.gpu_fault || account.crashed ||
      !account.launches_before_final_flush ||
      account.launches <= *account.launches_before_final_flush) {
    return {};
  }
  const std::uint64_t late = account.launches - *account.launches_before_final_flush;
  return "CUPTI saw " + std::to_string(account.launches) + " kernel launch" +
         (account.launches == 1 ? "" : "es") + " and delivered a record of each, " +
         std::to_string(account.untimed_records) + " without timestamps: " + std::to_string(late) +
         " " + (late == 1 ? "was" : "were") +
         " launched after kerntime's final synchronization began (by a thread still running at "
         "exit or after the signal), so " +
         (late == 1 ? "it was" : "they were") + " still in flight when the last records were read" +
         (account.in_flight.empty() ? "" : "; " + account.in_flight);
}

}  // namespace

std::string missing_records_warning(const RecordAccount& account, const std::string& other_client) {
  const std::uint64_t delivered = account.kernel_records + account.dropped_records;
  if (delivered >= account.launches) return untimed_in_flight(account);
  const std::string seen =
      "CUPTI saw " + std::to_string(account.launches) + " kernel launch" +
      (account.launches == 1 ? "" : "es") + " but delivered " +
      (account.kernel_records == 0 ? std::string{"no kernel record"}
                                   : std::to_string(account.kernel_records) + " kernel record" +
                                         (account.kernel_records == 1 ? "" : "s")) +
      (account.dropped_records > 0
           ? " (and dropped " + std::to_string(account.dropped_records) + ")"
           : std::string{});
  if (account.gpu_fault) {
    return seen +
           ": the GPU faulted, so the kernels after the fault never finished, and records "
           "CUPTI still held on the GPU were lost";
  }
  if (account.crashed) {
    return seen +
           ": the others had not finished, or their records not arrived, when the process "
           "ended";
  }
  if (account.launches_before_final_flush && delivered >= *account.launches_before_final_flush) {
    const std::uint64_t late = account.launches - delivered;
    return seen + ": the other " + std::to_string(late) + " " + (late == 1 ? "was" : "were") +
           " launched after kerntime's final synchronization began (by a thread still running "
           "at exit or after the signal), so " +
           (late == 1 ? "it was" : "they were") +
           " still in flight when the last records were read" +
           (account.in_flight.empty() ? "" : "; " + account.in_flight);
  }
  return seen + ": another CUPTI client in this process received the others (" + other_client +
         "); CUPTI gives activity records to one client, and the kernel summary covers only "
         "what kerntime received";
}

std::string in_flight_launches(const std::vector<RecentLaunch>& recent, std::uint32_t after,
                               const std::function<std::string(pid_t)>& thread_name,
                               const std::function<std::string(std::uint64_t)>& ranges) {
  constexpr std::size_t kNamed = 3;
  std::vector<const RecentLaunch*> late;
  for (const RecentLaunch& launch : recent) {
    if (launch.newest && launch.launch.correlation_id > after) late.push_back(&launch);
  }
  if (late.empty()) return {};
  std::sort(late.begin(), late.end(), [](const RecentLaunch* a, const RecentLaunch* b) {
    return a->launch.correlation_id > b->launch.correlation_id;
  });
  std::string text = late.size() == 1 ? "the last one launched: "
                                      : "the last launched by each of the " +
                                            std::to_string(late.size()) + " threads: ";
  for (std::size_t i = 0; i < late.size() && i < kNamed; ++i) {
    LastLaunch launch = late[i]->launch;
    launch.ranges = ranges(launch.range_path);
    if (i > 0) text += "; ";
    text += describe_last_launch(launch, thread_name(launch.thread));
  }
  if (late.size() > kNamed) text += "; and " + std::to_string(late.size() - kNamed) + " more";
  return text;
}

}  // namespace kerntime::inject
