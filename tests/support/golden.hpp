// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace kerntime::testing {

/// Compares `actual` with the golden file `<directory>/golden/<file>` byte for byte. With
/// KERNTIME_UPDATE_GOLDEN=1 it writes `actual` there instead (review with `git diff`).
void expect_golden(const std::string& directory, const std::string& file,
                   const std::string& actual);

/// True when KERNTIME_UPDATE_GOLDEN=1: golden files are being regenerated.
bool updating_goldens();

}  // namespace kerntime::testing
