// SPDX-License-Identifier: Apache-2.0
// Report arguments of `kerntime compare` and `kerntime report`: a file, or `-` for standard
// input as Unix tools accept, read whole so that the commands can also tell whether two
// arguments hold the same bytes.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>

namespace kerntime::cli {

/// The name messages use for `-`.
inline const char* const kStandardInputName = "<stdin>";

/// The text of `path`, or of standard input for `-`. Throws kerntime::Error naming the path and
/// the cause the system gave ("Permission denied", "Is a directory").
inline std::string read_report_text(const std::string& path) {
  const bool standard_input = path == "-";
  const std::string name = standard_input ? kStandardInputName : path;
  struct Closer {
    bool close;
    void operator()(std::FILE* file) const {
      if (close) std::fclose(file);
    }
  };
  errno = 0;
  std::unique_ptr<std::FILE, Closer> file(standard_input ? stdin : std::fopen(path.c_str(), "rb"),
                                          Closer{!standard_input});
  if (!file) throw Error(name + ": cannot open report: " + std::strerror(errno));
  std::string text;
  char buffer[65536];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    text.append(buffer, got);
  // A directory opens fine on Linux and fails here with EISDIR.
  if (std::ferror(file.get())) throw Error(name + ": cannot read report: " + std::strerror(errno));
  return text;
}

/// The report at `path` (`-`: standard input); errors name the path.
inline Report read_report_argument(const std::string& path) {
  return parse_report(read_report_text(path), path == "-" ? kStandardInputName : path);
}

}  // namespace kerntime::cli
