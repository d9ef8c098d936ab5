// SPDX-License-Identifier: Apache-2.0
// One function per text view; render() in format.cpp dispatches to them.
#pragma once

#include <string>

#include <kerntime/report.hpp>

namespace kerntime::format_detail {

std::string render_table(const Report& report);
std::string render_markdown(const Report& report);
std::string render_csv(const Report& report);

}  // namespace kerntime::format_detail
