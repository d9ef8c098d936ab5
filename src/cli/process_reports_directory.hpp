// SPDX-License-Identifier: Apache-2.0
// The folder where the program's processes write their reports: the one --process-reports names,
// or a temporary one that is removed, with everything in it, on every way out of `kerntime run`
// (the program could not start, an error, a signal that ended kerntime after the program).
#pragma once

#include <string>

namespace kerntime::cli {

class ProcessReportsDirectory {
 public:
  /// `chosen` (created when missing), or a new $TMPDIR/kerntime-run-XXXXXX when it is empty.
  /// Throws kerntime::Error when the folder cannot be created.
  explicit ProcessReportsDirectory(const std::string& chosen);
  ~ProcessReportsDirectory();
  ProcessReportsDirectory(const ProcessReportsDirectory&) = delete;
  ProcessReportsDirectory& operator=(const ProcessReportsDirectory&) = delete;

  /// The folder, as an absolute path when it can be resolved.
  const std::string& path() const { return path_; }
  bool temporary() const { return temporary_; }
  /// Leaves a temporary folder in place (the merged report could not be written anywhere).
  void keep() { temporary_ = false; }

 private:
  std::string path_;
  bool temporary_ = false;
};

}  // namespace kerntime::cli
