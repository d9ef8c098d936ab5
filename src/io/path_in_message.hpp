// SPDX-License-Identifier: Apache-2.0
// How a message names a file. Messages are one line (tools grep them, CI shows the first line),
// but a path may hold any byte but NUL: a path with a line break or ESC would split the message
// or drive the terminal that shows it.
#pragma once

#include <string>

#include "io/json_text.hpp"

namespace kerntime::io {

/// `path` as written when every byte is printable (the usual case: messages keep the name the
/// user typed); otherwise quoted and escaped as a JSON string ("a\nb.json"), which is one line.
inline std::string path_in_message(const std::string& path) {
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return json_string(path);
  }
  return path;
}

}  // namespace kerntime::io
