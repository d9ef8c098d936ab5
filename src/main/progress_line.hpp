// SPDX-License-Identifier: Apache-2.0
// The runner's progress line: one line on a terminal, redrawn in place after every round of
// samples and erased when a configuration is done, so that what is printed afterwards (a
// failure, the results table) starts on a clean line. Never drawn when the stream is not a
// terminal (a log file or a pipe must not fill with carriage returns) or with --quiet.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include <kerntime/measure.hpp>

namespace kerntime::main {

class ProgressLine {
 public:
  /// Draws on `stream` when `enabled`; `prefix` starts every line ("process 2/5 ").
  ProgressLine(std::FILE* stream, bool enabled, std::string prefix);

  /// True when a progress line belongs on `stream`: not quiet, and the stream is a terminal.
  static bool wanted(bool quiet, std::FILE* stream);

  /// The line for configuration `index` of `total`: "[3/22] saxpy/n=1048576/cold: 120
  /// samples, 0.4 s", with `after_name` (" (repetition 2/3)", or empty) after the name, cut to
  /// `columns` - 1 columns (0: not cut) so that it never wraps, since erasing a line cannot
  /// erase the rows a wrapped line took.
  static std::string text(const std::string& prefix, std::size_t index, std::size_t total,
                          const MeasureProgress& p, std::size_t columns,
                          const std::string& after_name = {});

  /// Replaces the line on the terminal with text() for `p`.
  void show(std::size_t index, std::size_t total, const MeasureProgress& p,
            const std::string& after_name = {});
  /// Erases the line and leaves the cursor at its start; nothing when nothing was drawn.
  void clear();

 private:
  std::size_t columns() const;  ///< the terminal's width, 0 when unknown

  std::FILE* stream_;
  bool enabled_;
  std::string prefix_;
  bool drawn_ = false;
};

}  // namespace kerntime::main
