// SPDX-License-Identifier: Apache-2.0
#include "main/progress_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/core.h>

namespace kerntime::main {
namespace {

// Return to the start of the line and erase to its end (ANSI CSI K).
constexpr const char* kEraseLine = "\r\033[K";

}  // namespace

ProgressLine::ProgressLine(std::FILE* stream, bool enabled, std::string prefix)
    : stream_(stream), enabled_(enabled && stream != nullptr), prefix_(std::move(prefix)) {}

bool ProgressLine::wanted(bool quiet, std::FILE* stream) {
  return !quiet && stream != nullptr && isatty(fileno(stream)) == 1;
}

std::string ProgressLine::text(const std::string& prefix, std::size_t index, std::size_t total,
                               const MeasureProgress& p, std::size_t columns,
                               const std::string& after_name) {
  std::string line =
      fmt::format("{}[{}/{}] {}{}: {} samples, {:.1f} s", prefix, index, total,
                  p.name != nullptr ? *p.name : std::string{}, after_name, p.samples, p.elapsed_s);
  // Printable ASCII only: a byte per column. A name with control characters is shown with '?'
  // for them, so the line stays one line.
  for (char& c : line) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  if (columns > 1 && line.size() > columns - 1) line.resize(columns - 1);
  return line;
}

std::size_t ProgressLine::columns() const {
  winsize size{};
  if (ioctl(fileno(stream_), TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

void ProgressLine::show(std::size_t index, std::size_t total, const MeasureProgress& p,
                        const std::string& after_name) {
  if (!enabled_) return;
  std::fprintf(stream_, "%s%s", kEraseLine,
               text(prefix_, index, total, p, columns(), after_name).c_str());
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!enabled_ || !drawn_) return;
  std::fputs(kEraseLine, stream_);
  std::fflush(stream_);
  drawn_ = false;
}

}  // namespace kerntime::main
