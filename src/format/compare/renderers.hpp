// SPDX-License-Identifier: Apache-2.0
// One renderer per format; render() in render.cpp picks one.
#pragma once

#include <string>

#include <kerntime/compare.hpp>

namespace kerntime::format_detail {

std::string render_comparison_table(const Comparison& comparison, bool color);
std::string render_comparison_markdown(const Comparison& comparison);
std::string render_comparison_json(const Comparison& comparison);
std::string render_comparison_junit(const Comparison& comparison);

}  // namespace kerntime::format_detail
