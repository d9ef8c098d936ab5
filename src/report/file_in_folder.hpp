// SPDX-License-Identifier: Apache-2.0
// A file that a report names, looked up inside one folder and nowhere else. The report may come
// from anyone (a contributor's benchmark upload that CI compares): a name such as
// "../../secret", an absolute path or a symbolic link out of the folder would otherwise make
// kerntime read any file it may read and print its bytes as samples. Each lookup place (the
// JSON's folder today; the working directory or an old NVBench's `<json>-bin/` later) is one
// call, so a lookup order is a list of calls.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace kerntime::report {

/// The longest name resolve_inside() looks up (PATH_MAX on Linux); longer ones are refused.
inline constexpr std::size_t kMaxNamedFileBytes = 4096;

/// What resolve_inside() found.
struct FileInFolder {
  enum class Status {
    found,    // `path` is a regular file inside the folder
    missing,  // the name stays inside the folder, but no file is there
    refused,  // `refusal` says why; nothing was read
  };
  Status status = Status::missing;
  /// found: the file with every symbolic link resolved, so that opening it follows none.
  std::filesystem::path path;
  /// refused: why, one line, without the target of any link ("lies outside the folder of
  /// bench.json"); the caller names the file.
  std::string refusal;
};

/// `name`, relative to `folder`, when it resolves (symbolic links followed) to a regular file
/// inside `folder`. Refused, without touching the file: an empty name, one with a NUL byte, one
/// longer than kMaxNamedFileBytes, an absolute path, one whose `..` climb out of the folder, one
/// that leads through a symbolic link out of the folder or to nothing, and anything that is not
/// a regular file (a directory, FIFO, device or socket). A missing file is told apart from a
/// refused one only where the name stays inside the folder, so the answer says nothing about
/// files elsewhere. `folder_words` names the folder in refusals ("the folder of bench.json").
FileInFolder resolve_inside(const std::filesystem::path& folder, std::string_view name,
                            const std::string& folder_words);

}  // namespace kerntime::report
