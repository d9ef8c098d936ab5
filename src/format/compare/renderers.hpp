// SPDX-License-Identifier: Apache-2.0
// One renderer per format; render() in render.cpp picks one.
#pragma once

#include <string>

#include <kerntime/compare.hpp>

namespace kerntime::detail {

std::string render_table(const Comparison& comparison, bool color);
std::string render_markdown(const Comparison& comparison);
std::string render_json(const Comparison& comparison);
std::string render_junit(const Comparison& comparison);

}  // namespace kerntime::detail
