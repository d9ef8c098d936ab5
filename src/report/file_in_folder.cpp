// SPDX-License-Identifier: Apache-2.0
// The name is checked as text first (nothing on disk is touched for `..` or an absolute path),
// then resolved as the kernel would open it, links followed, and the result must still lie
// inside the resolved folder. A name that passes a symbolic link is refused alike whether the
// link leads out of the folder or nowhere: otherwise "missing" against "refused" would tell
// whether a file outside the folder exists.
#include "report/file_in_folder.hpp"

#include <system_error>

namespace kerntime::report {
namespace fs = std::filesystem;
namespace {

FileInFolder refused(std::string why) {
  FileInFolder result;
  result.status = FileInFolder::Status::refused;
  result.refusal = std::move(why);
  return result;
}

// Whether `path` lies strictly inside `folder` (both resolved, without `.` or `..`).
bool inside(const fs::path& folder, const fs::path& path) {
  const fs::path relative = path.lexically_relative(folder);
  return !relative.empty() && relative != "." && *relative.begin() != "..";
}

const char* kind_of(fs::file_type type) {
  switch (type) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "not a regular file";
  }
}

}  // namespace

FileInFolder resolve_inside(const fs::path& folder, std::string_view name,
                            const std::string& folder_words) {
  if (name.empty()) return refused("is an empty name");
  // The system reads a path up to its first NUL: "../secret\0x" would open "../secret".
  if (name.find('\0') != std::string_view::npos) return refused("holds a NUL byte");
  if (name.size() > kMaxNamedFileBytes) {
    return refused("is longer than " + std::to_string(kMaxNamedFileBytes) + " bytes");
  }
  const fs::path relative{std::string{name}};
  if (relative.has_root_path()) {
    return refused("is an absolute path, not a name relative to " + folder_words);
  }
  const fs::path normal = relative.lexically_normal();
  if (normal.empty() || normal == ".") return refused("names " + folder_words + ", not a file");
  if (*normal.begin() == "..") return refused("lies outside " + folder_words);

  std::error_code error;
  fs::path root = fs::weakly_canonical(folder, error);
  if (error) return FileInFolder{};  // a folder that cannot be resolved holds no file we can read
  if (!root.has_filename()) root = root.parent_path();  // "dir/" as "dir"

  // The name's own parts, `..` included, as open(2) walks them: a link anywhere on the way.
  bool through_link = false;
  fs::path walked = root;
  for (const fs::path& part : relative) {
    walked /= part;
    const fs::file_status status = fs::symlink_status(walked, error);
    if (status.type() == fs::file_type::not_found || status.type() == fs::file_type::none) break;
    if (fs::is_symlink(status)) {
      through_link = true;
      break;
    }
  }
  const std::string link_words =
      "passes through a symbolic link that leads out of " + folder_words + " or to no file";

  const fs::path resolved = fs::weakly_canonical(root / relative, error);
  if (error) {
    if (through_link) return refused(link_words);
    return refused("cannot be resolved: " + error.message());
  }
  if (!inside(root, resolved)) {
    return refused(through_link ? link_words : "lies outside " + folder_words);
  }
  const fs::file_status status = fs::status(resolved, error);
  if (status.type() == fs::file_type::not_found) {
    if (through_link) return refused(link_words);
    return FileInFolder{};
  }
  if (error) return refused("cannot be read: " + error.message());
  if (!fs::is_regular_file(status)) {
    return refused(std::string{"is "} + kind_of(status.type()) + ", not a regular file");
  }
  FileInFolder found;
  found.status = FileInFolder::Status::found;
  found.path = resolved;
  return found;
}

}  // namespace kerntime::report
