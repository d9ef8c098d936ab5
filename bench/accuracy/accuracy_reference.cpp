// SPDX-License-Identifier: Apache-2.0
#include "accuracy_reference.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/session.hpp>

#include "device_buffer.hpp"

namespace kerntime::examples {
namespace {

double median(std::vector<double> values) {
  if (values.empty()) throw Error("no samples to take a median of");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

}  // namespace

double cupti_plain_median_ns(Tracer& tracer, const Launcher& launcher, const std::string& kernel,
                             int count, cudaStream_t stream) {
  launcher(stream);  // loads the kernel before the records that count
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  tracer.flush();
  tracer.clear();
  for (int i = 0; i < count; ++i) {
    launcher(stream);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  tracer.flush();
  std::vector<double> durations;
  for (const KernelActivity& k : tracer.trace().kernels) {
    if (k.name.find(kernel) != std::string_view::npos) {
      durations.push_back(static_cast<double>(k.duration_ns()));
    }
  }
  tracer.clear();
  return median(durations);
}

double event_pair_median_ns(const Launcher& launcher, int count, cudaStream_t stream) {
  Session session;
  launcher(stream);
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  for (int i = 0; i < count; ++i) {
    {
      ScopedTimer timer{session, "pair", stream};
      launcher(stream);
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  return median(session.samples("pair"));
}

std::string driver_release() {
  std::ifstream file("/proc/driver/nvidia/version");
  std::string line;
  std::getline(file, line);
  std::smatch match;
  if (std::regex_search(line, match, std::regex("[0-9]+\\.[0-9]+(\\.[0-9]+)?"))) {
    return match.str();
  }
  return "unknown";
}

}  // namespace kerntime::examples
