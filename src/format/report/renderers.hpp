// SPDX-License-Identifier: Apache-2.0
// One function per text view; render() in format.cpp dispatches to them.
#pragma once

#include <string>
#include <vector>

#include <kerntime/name_style.hpp>
#include <kerntime/report.hpp>

namespace kerntime::format {

std::string render_table(const Report& report, NameStyle names);
std::string render_markdown(const Report& report, NameStyle names);
std::string render_csv(const Report& report);
/// One self-contained HTML page: entries with their distributions, the engine's measurements,
/// and for a traced report the kernels by GPU time and the NVTX ranges.
std::string render_html(const Report& report, NameStyle names);
/// Reports in order as one page of trends: a chart per entry with its steps (html_trend.cpp).
std::string render_html_trend(const std::vector<Report>& reports,
                              const std::vector<std::string>& labels, NameStyle names,
                              double threshold);

}  // namespace kerntime::format
