// SPDX-License-Identifier: Apache-2.0
#include "inject/missing_records.hpp"

namespace kerntime::inject {

std::string missing_records_warning(const RecordAccount& account, const std::string& other_client) {
  if (account.kernel_records + account.dropped_records >= account.launches) return {};
  const std::string seen =
      "CUPTI saw " + std::to_string(account.launches) + " kernel launch" +
      (account.launches == 1 ? "" : "es") + " but delivered " +
      (account.kernel_records == 0 ? std::string{"no kernel record"}
                                   : std::to_string(account.kernel_records) + " kernel record" +
                                         (account.kernel_records == 1 ? "" : "s")) +
      (account.dropped_records > 0
           ? " (and dropped " + std::to_string(account.dropped_records) + ")"
           : std::string{});
  if (account.crashed) {
    return seen +
           ": the others had not finished, or their records not arrived, when the process "
           "ended";
  }
  return seen + ": another CUPTI client in this process received the others (" + other_client +
         "); CUPTI gives activity records to one client, and the kernel summary covers only "
         "what kerntime received";
}

}  // namespace kerntime::inject
