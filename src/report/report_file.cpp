// SPDX-License-Identifier: Apache-2.0
// Report files. stdio rather than iostreams because errno after fopen/fread/fclose is what
// tells a person why ("Permission denied", "Is a directory"), and iostreams do not promise it.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <kerntime/error.hpp>
#include <kerntime/report_json.hpp>

#include "io/file_writer.hpp"

namespace kerntime {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void fail(const std::string& path, const char* what, int error_number) {
  throw Error(path + ": " + what + ": " + std::strerror(error_number));
}

}  // namespace

Report read_report_file(const std::string& path) {
  errno = 0;
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) fail(path, "cannot open report", errno);
  std::string text;
  char buffer[65536];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    text.append(buffer, got);
  // A directory opens fine on Linux and fails here with EISDIR.
  if (std::ferror(file.get())) fail(path, "cannot read report", errno);
  return parse_report(text, path);
}

// Written next to the target and renamed over it (io::write_file_atomically), so an
// interrupted write never leaves a truncated baseline behind.
void write_report_file(const Report& report, const std::string& path) {
  std::string text;
  try {
    text = to_json(report);
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
  io::write_file_atomically(path, text);
}

}  // namespace kerntime
