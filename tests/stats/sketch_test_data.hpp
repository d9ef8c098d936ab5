// SPDX-License-Identifier: Apache-2.0
// Seeded data sets of kernel-duration shapes (ns) for the sketch and summary tests, and the
// check that a sketch's quantile is within its relative accuracy of the exact one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kerntime::stats::testing {

struct DataSet {
  std::string name;
  std::vector<double> values;
};

/// Log-normal, bimodal, constant, heavy tail with outliers, 1 ns..1 s log-uniform, and integer
/// nanoseconds with zeros; `size` values each, the same on every run.
std::vector<DataSet> duration_shapes(std::size_t size);

/// The quantiles every shape is checked at, tails included.
const std::vector<double>& tested_quantiles();

/// The bound of a relative-accuracy estimate of `exact`: alpha |exact|, widened by 1e-9 of itself
/// for the rounding of log() and exp() at bucket boundaries (a value on a boundary can land in
/// the next bucket, whose answer is then off by alpha plus a few units in the last place).
double sketch_error_bound(double exact, double alpha);

}  // namespace kerntime::stats::testing
