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

/// JUnit XML for a comparison that could not be made (exit status 2): one test case holding an
/// <error> with `message`, so that CI's test view shows why instead of nothing.
std::string render_junit_error(const std::string& baseline, const std::string& candidate,
                               const std::string& message);

}  // namespace kerntime::format_detail
