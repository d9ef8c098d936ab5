// SPDX-License-Identifier: Apache-2.0
#include "compare/render_cells.hpp"

#include <cstddef>
#include <string>

#include <fmt/format.h>

#include "compare/text.hpp"

namespace kerntime::detail {
namespace {

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not valid.
std::size_t utf8_sequence(const std::string& text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  }
  // Overlong three- and four-byte forms, surrogates and code points above U+10FFFF.
  if (lead == 0xe0 && byte(i + 1) < 0xa0) return 0;
  if (lead == 0xed && byte(i + 1) >= 0xa0) return 0;
  if (lead == 0xf0 && byte(i + 1) < 0x90) return 0;
  if (lead == 0xf4 && byte(i + 1) >= 0x90) return 0;
  return length;
}

}  // namespace

std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (const std::size_t length = utf8_sequence(text, i); length != 0) {
      out.append(text, i, length);
      i += length;
      continue;
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
    ++i;
  }
  return out;
}

std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (char c : text) {
    width += (static_cast<unsigned char>(c) & 0xc0) != 0x80 ? 1 : 0;
  }
  return width;
}

EntryCells cells_of(const EntryComparison& entry) {
  EntryCells cells;
  cells.name = printable(entry.name);
  cells.baseline = entry.baseline ? format_amount(entry.baseline->median, entry.baseline->unit)
                                  : std::string("-");
  cells.candidate = entry.candidate ? format_amount(entry.candidate->median, entry.candidate->unit)
                                    : std::string("-");
  if (entry.baseline && entry.baseline->count == 0) cells.baseline = "-";
  if (entry.candidate && entry.candidate->count == 0) cells.candidate = "-";
  cells.change = entry.ratio ? format_change(*entry.ratio) : "-";
  cells.interval = entry.ratio_ci ? fmt::format("[{}, {}]", format_change(entry.ratio_ci->low),
                                                format_change(entry.ratio_ci->high))
                                  : "-";
  cells.p = entry.p_value ? format_p(*entry.p_value) : "-";
  cells.threshold = format_percent(entry.threshold);
  cells.verdict = std::string(to_string(entry.verdict));
  cells.reason = printable(entry.reason);
  return cells;
}

std::string interval_title(const Comparison& comparison) {
  return fmt::format("{} CI", format_percent(comparison.confidence_level()));
}

std::string summary_counts(const Comparison& comparison) {
  return fmt::format("{} regressed, {} improved, {} same, {} inconclusive, {} added, {} removed",
                     comparison.count(Verdict::regressed), comparison.count(Verdict::improved),
                     comparison.count(Verdict::same), comparison.count(Verdict::inconclusive),
                     comparison.count(Verdict::added), comparison.count(Verdict::removed));
}

std::string settings_line(const Comparison& comparison) {
  return fmt::format(
      "alpha {} (two-sided Mann-Whitney U), {} intervals of the median ratio, threshold {} "
      "unless set per entry, at least {} samples per side",
      comparison.alpha, format_percent(comparison.confidence_level()),
      format_percent(comparison.default_threshold), comparison.min_samples);
}

}  // namespace kerntime::detail
