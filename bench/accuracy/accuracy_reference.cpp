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

std::vector<double> reader_medians_ns(const std::vector<ReaderWork>& work) {
#ifndef KERNTIME_REFERENCE_READER_PATH
  (void)work;
  return {};
#else
  char folder[] = "/tmp/kerntime_accuracy_reader_XXXXXX";
  if (::mkdtemp(folder) == nullptr) throw Error("cannot make a folder for the reference reader");
  const std::string prefix = std::string{folder} + "/ref";
  std::string arguments;
  for (const ReaderWork& w : work) {
    arguments +=
        (arguments.empty() ? "" : ",") +
        (w.spin_ns > 0 ? "s" + std::to_string(w.spin_ns) : "c" + std::to_string(w.copy_bytes)) +
        ":" + std::to_string(w.count);
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
      const bool ours = line.find("spin_kernel") != std::string::npos ||
                        line.find("device_copy") != std::string::npos;
      if (!ours || start == 0 || end < start) continue;
      records.emplace_back(start, static_cast<double>(end - start));
    }
  }
  std::filesystem::remove_all(folder);
  if (status != 0) throw Error("the reference reader's child failed: " + command);
  // The child launched the work in order, each `count` times after one untimed launch.
  std::sort(records.begin(), records.end());
  std::size_t expected = 0;
  for (const ReaderWork& w : work)
    expected += static_cast<std::size_t>(w.count) + 1;
  if (records.size() != expected) {
    throw Error("the reference reader saw " + std::to_string(records.size()) +
                " spin and copy kernels, the child launched " + std::to_string(expected));
  }
  std::vector<double> medians;
  std::size_t at = 0;
  for (const ReaderWork& w : work) {
    ++at;  // the untimed first launch
    std::vector<double> durations;
    for (int i = 0; i < w.count; ++i)
      durations.push_back(records[at++].second);
    medians.push_back(median(durations));
  }
  return medians;
#endif
}

int run_reader_child(const std::string& arguments) {
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  int device = 0;
  int l2_bytes = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device), "L2 cache size");
  std::vector<std::pair<char, std::uint64_t>> items;  // kind, value
  std::vector<int> counts;
  std::uint64_t largest_copy = 0;
  std::istringstream list(arguments);
  for (std::string item; std::getline(list, item, ',');) {
    const std::size_t colon = item.find(':');
    if (item.size() < 2 || colon == std::string::npos) throw Error("bad reader work " + item);
    items.emplace_back(item[0], std::stoull(item.substr(1, colon - 1)));
    counts.push_back(std::stoi(item.substr(colon + 1)));
    if (item[0] == 'c') largest_copy = std::max(largest_copy, items.back().second);
  }
  const DeviceBuffer src{std::max<std::uint64_t>(largest_copy, 16)};
  const DeviceBuffer dst{std::max<std::uint64_t>(largest_copy, 16)};
  const DeviceBuffer flush{static_cast<std::size_t>(std::max(l2_bytes, 16))};
  for (std::size_t k = 0; k < items.size(); ++k) {
    const auto [kind, value] = items[k];
    for (int i = 0; i < counts[k] + 1; ++i) {  // the first loads the kernel
      if (kind == 's') {
        samples::launch_spin(value, stream);
      } else {
        // The engine's cold flush: a memset of the L2's size, another byte each time.
        check(
            cudaMemsetAsync(flush.as<void>(), i & 0xff, static_cast<std::size_t>(l2_bytes), stream),
            "cudaMemsetAsync (L2 flush)");
        samples::launch_device_copy(dst.as<void>(), src.as<void>(), value, stream);
      }
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
