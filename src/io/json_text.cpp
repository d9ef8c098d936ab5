// SPDX-License-Identifier: Apache-2.0
#include "io/json_text.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace kerntime::io {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the well-formed UTF-8 sequence at `at` (Unicode table 3-7), or 0 when it is
// ill-formed; then `*skip` is the length of its maximal subpart (at least 1), which becomes one
// U+FFFD.
std::size_t sequence_length(std::string_view text, std::size_t at, std::size_t* skip) {
  const auto byte = [&text](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(at);
  *skip = 1;
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  std::uint8_t low = 0x80;  // the range of the second byte; later bytes are 80..BF
  std::uint8_t high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // no overlong forms
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;  // a continuation byte without a lead, C0, C1 or F5..FF
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (at + k >= text.size()) {
      *skip = k;
      return 0;
    }
    const std::uint8_t b = byte(at + k);
    if (b < (k == 1 ? low : 0x80) || b > (k == 1 ? high : 0xBF)) {
      *skip = k;
      return 0;
    }
  }
  return length;
}

// Copies `text` to `out` by UTF-8 sequence: an invalid one becomes U+FFFD, a multi-byte one is
// copied as it is, and each single byte goes to `one_byte`.
template <class OneByte>
void copy_utf8(std::string& out, std::string_view text, OneByte one_byte) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t skip = 1;
    const std::size_t length = sequence_length(text, at, &skip);
    if (length == 0) {
      out += kReplacement;
      at += skip;
    } else if (length > 1) {
      out.append(text.substr(at, length));
      at += length;
    } else {
      one_byte(text[at++]);
    }
  }
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  copy_utf8(out, text, [&out](char c) { out.push_back(c); });
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  copy_utf8(out, text, [&out](char c) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out.push_back(kHex[(c >> 4) & 0xF]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  });
  out.push_back('"');
}

std::string json_string(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  append_json_string(out, text);
  return out;
}

std::string nested_json(std::string_view text, int levels) {
  const std::string indent(static_cast<std::size_t>(levels) * 2, ' ');
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  // Line by line: a report's samples make tens of thousands of short lines, and `kerntime run`
  // writes its report at every checkpoint.
  std::size_t from = 0;
  for (std::size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', from)) {
    out.append(text.data() + from, at + 1 - from);
    out += indent;
    from = at + 1;
  }
  out.append(text.data() + from, text.size() - from);
  return out;
}

}  // namespace kerntime::io
