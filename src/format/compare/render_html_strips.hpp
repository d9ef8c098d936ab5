// SPDX-License-Identifier: Apache-2.0
// The strip plots of the comparison's HTML page: for each entry that needs a look (regressed or
// inconclusive), both sides' samples as dots and each run's median as a tick, so that a bimodal
// kernel or one run off the others is seen as such.
#pragma once

#include <cstddef>

#include <kerntime/compare.hpp>
#include <kerntime/report.hpp>

#include "format/chunked_text.hpp"
#include "format/name_column.hpp"

namespace kerntime::format {

/// At most this many strip plots, worst first, and this many dots per side: the page is sized by
/// the entries, not by their samples. More samples are drawn as that many evenly spaced order
/// statistics (quantiles), and the page says so.
inline constexpr std::size_t kMaxStripPlots = 100;
inline constexpr std::size_t kMaxDotsPerSide = 200;

/// A section of strip plots for the regressed and inconclusive entries of `comparison`, from the
/// two reports it compared, leaving out those with one sample a side (summaries only); nothing
/// when no entry needs one.
void write_strip_plots(const Comparison& comparison, const Report& baseline,
                       const Report& candidate, const NameColumn& names, ChunkedText& out);

}  // namespace kerntime::format
