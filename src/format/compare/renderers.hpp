// SPDX-License-Identifier: Apache-2.0
// One renderer per format; render_to() in render.cpp picks one. Each writes into a ChunkedText
// entry by entry, so a comparison of a million entries is never held as cells or one string.
#pragma once

#include <kerntime/compare.hpp>

#include "format/chunked_text.hpp"
#include "format/name_column.hpp"

namespace kerntime::format {

void write_comparison_table(const Comparison& comparison, bool color, NameStyle names,
                            ChunkedText& out);
void write_comparison_markdown(const Comparison& comparison, NameStyle names, ChunkedText& out);
/// The Entry column of the table and Markdown views: the entries' names as `names` asks,
/// numbered apart over the whole comparison (not escaped).
NameColumn entry_names(const Comparison& comparison, NameStyle names,
                       std::size_t width = text::kShortNameWidth);

void write_comparison_json(const Comparison& comparison, ChunkedText& out);
void write_comparison_junit(const Comparison& comparison, ChunkedText& out);
/// One self-contained HTML page: a forest plot of the changes, the verdicts with reasons, and,
/// given the two reports compared, strip plots of the samples of the entries that need a look.
void write_comparison_html(const Comparison& comparison, NameStyle names, ChunkedText& out,
                           const Report* baseline = nullptr, const Report* candidate = nullptr);

}  // namespace kerntime::format
