// SPDX-License-Identifier: Apache-2.0
#include "accuracy_reference.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdlib.h>
#include <utility>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/session.hpp>

#include "accuracy_events_only.hpp"
#include "device_buffer.hpp"
#include "kernels/samples.hpp"

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

std::vector<double> reader_spin_medians_ns(const std::vector<std::uint64_t>& lengths,
                                           const std::vector<int>& counts) {
#ifndef KERNTIME_REFERENCE_READER_PATH
  (void)lengths;
  (void)counts;
  return {};
#else
  char folder[] = "/tmp/kerntime_accuracy_reader_XXXXXX";
  if (::mkdtemp(folder) == nullptr) throw Error("cannot make a folder for the reference reader");
  const std::string prefix = std::string{folder} + "/ref";
  std::string arguments;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    arguments += (i == 0 ? "" : ",") + std::to_string(lengths[i]) + ":" + std::to_string(counts[i]);
  }
  // No kerntime in the child's way: no cache, no calibration process, no Tracer of its own.
  const std::string command = "KERNTIME_NO_CALIBRATION_PROCESS=1 CUDA_INJECTION64_PATH='" +
                              std::string{KERNTIME_REFERENCE_READER_PATH} +
                              "' KERNTIME_REFERENCE_OUT='" + prefix + "' '" + own_executable() +
                              "' --reader-child=" + arguments;
  const int status = std::system(command.c_str());
  std::vector<std::pair<std::uint64_t, double>> records;  // start, duration
  for (const auto& file : std::filesystem::directory_iterator(folder)) {
    std::ifstream in(file.path());
    for (std::string line; std::getline(in, line);) {
      std::istringstream fields(line);
      std::uint64_t start = 0;
      std::uint64_t end = 0;
      fields >> start >> end;
      if (line.find("spin_kernel") == std::string::npos || start == 0 || end < start) continue;
      records.emplace_back(start, static_cast<double>(end - start));
    }
  }
  std::filesystem::remove_all(folder);
  if (status != 0) throw Error("the reference reader's child failed: " + command);
  // The child launched the lengths in order, each `counts[i]` times after one untimed launch.
  std::sort(records.begin(), records.end());
  std::size_t expected = 0;
  for (const int count : counts)
    expected += static_cast<std::size_t>(count) + 1;
  if (records.size() != expected) {
    throw Error("the reference reader saw " + std::to_string(records.size()) +
                " spin kernels, the child launched " + std::to_string(expected));
  }
  std::vector<double> medians;
  std::size_t at = 0;
  for (const int count : counts) {
    ++at;  // the untimed first launch
    std::vector<double> durations;
    for (int i = 0; i < count; ++i)
      durations.push_back(records[at++].second);
    medians.push_back(median(durations));
  }
  return medians;
#endif
}

int run_reader_child(const std::string& arguments) {
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  std::istringstream items(arguments);
  for (std::string item; std::getline(items, item, ',');) {
    const std::size_t colon = item.find(':');
    const std::uint64_t ns = std::stoull(item.substr(0, colon));
    const int count = std::stoi(item.substr(colon + 1));
    for (int i = 0; i < count + 1; ++i) {  // the first loads the kernel
      samples::launch_spin(ns, stream);
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
  }
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return 0;
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
