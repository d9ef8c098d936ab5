// SPDX-License-Identifier: Apache-2.0
#include "sketch_test_data.hpp"

#include <cmath>
#include <cstdint>
#include <random>

namespace kerntime::stats::testing {

std::vector<DataSet> duration_shapes(std::size_t size) {
  std::mt19937_64 random(20261201);
  std::vector<DataSet> shapes;
  const auto make = [&](const std::string& name, auto&& draw) {
    DataSet set{name, {}};
    set.values.reserve(size);
    for (std::size_t i = 0; i < size; ++i)
      set.values.push_back(draw());
    shapes.push_back(std::move(set));
  };

  std::lognormal_distribution<double> lognormal(std::log(20000.0), 1.0);
  make("log-normal", [&] { return lognormal(random); });

  std::bernoulli_distribution fast_path(0.5);
  std::normal_distribution<double> fast(5000.0, 200.0);
  std::normal_distribution<double> slow(80000.0, 3000.0);
  make("bimodal", [&] { return std::fabs(fast_path(random) ? fast(random) : slow(random)); });

  make("constant", [] { return 12345.0; });

  // Pareto (x_m = 1 us, shape 1.2) with one value in a thousand a 1 s stall.
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  make("heavy tail with outliers", [&] {
    if (unit(random) < 0.001) return 1e9;
    return 1000.0 / std::pow(1.0 - unit(random), 1.0 / 1.2);
  });

  std::uniform_real_distribution<double> log_span(0.0, std::log(1e9));
  make("1 ns to 1 s", [&] { return std::exp(log_span(random)); });

  // Whole nanoseconds as CUPTI reports them, 28 % of them 0 (the zero bucket).
  std::exponential_distribution<double> short_kernels(1.0 / 3.0);
  make("integer ns with zeros", [&] { return std::floor(short_kernels(random)); });
  return shapes;
}

const std::vector<double>& tested_quantiles() {
  static const std::vector<double> quantiles = {0.0,  0.001, 0.01, 0.05, 0.1,   0.25, 0.5,
                                                0.75, 0.9,   0.95, 0.99, 0.999, 1.0};
  return quantiles;
}

double sketch_error_bound(double exact, double alpha) {
  return alpha * std::fabs(exact) * (1.0 + 1e-9);
}

}  // namespace kerntime::stats::testing
