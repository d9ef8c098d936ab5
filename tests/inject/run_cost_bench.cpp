// SPDX-License-Identifier: Apache-2.0
// What `kerntime run` costs on the CPU, part by part, without a GPU: the launch callback as
// CUPTI calls it for one CUDA 13 <<<>>> launch (runtime and nested driver call, entry and exit),
// the NVTX hooks (a push and a pop, alone and while the reader thread appends buffers), the
// reader thread's work per record, and a checkpoint's report. Each figure is a median of runs,
// in nanoseconds; run it before and after a change on the same machine (docs/run.md, "What
// kerntime adds on the program's threads"). Not a test: it asserts nothing.
//
//   kerntime_run_cost_bench [SECTION...]   sections: launch nvtx reader checkpoint (default all)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include "cupti/launch_watch.hpp"
#include "fake_nvtx.hpp"
#include "inject/last_launch.hpp"
#include "inject/launch_names.hpp"
#include "inject/nvtx_hooks.hpp"
#include "inject/run_recorder.hpp"

namespace kerntime::inject {
namespace {

using Clock = std::chrono::steady_clock;

double ns_since(Clock::time_point start) {
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

// The median over `runs` of `body`'s time divided by `per`.
double median_ns(int runs, double per, const std::function<void()>& body) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto start = Clock::now();
    body();
    times.push_back(ns_since(start) / per);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// PyTorch's kernel names run from 500 to 4,000 characters; they differ near their ends.
std::vector<std::string> long_names(std::size_t count) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < count; ++i) {
    std::string name = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_";
    name.append(500 + (i * 1'733) % 3'500, 'x');
    name += "E" + std::to_string(i) + "EEvT_";
    names.push_back(std::move(name));
  }
  return names;
}

// ---- launch: the callback of one <<<>>> launch, as CUDA 13 makes it ----

// What injection_hooks.cpp's launch-site handler does.
struct Sites {
  LaunchSlots slots;
  LaunchNames names;
};
void on_site(const cupti::CuptiApi::LaunchSite& site, void* context) {
  Sites& sites = *static_cast<Sites*>(context);
  sites.slots.publish(site.kernel_name, site.graph, site.device, site.context_id, site.stream,
                      site.per_thread_stream, site.correlation_id, open_range_path());
  sites.names.note(site.correlation_id, site.kernel_name);
}
void on_result(const cupti::CuptiApi::ApiResult&, void*) {}

void bench_launch() {
  const std::vector<std::string> names = long_names(64);
  cupti::LaunchWatch watch;
  auto sites = std::make_unique<Sites>();
  watch.site_handler.store(&on_site);
  watch.site_context.store(sites.get());
  watch.result_handler.store(&on_result);
  const void* context = reinterpret_cast<const void*>(0x1000);
  watch.contexts[0].store(context);
  watch.devices[0].store(0);
  watch.context_slots.store(1);
  cudaError_t runtime_ok = cudaSuccess;
  CUresult driver_ok = CUDA_SUCCESS;
  struct {
    const void* kernel = nullptr;
    dim3 grid, block;
    void** args = nullptr;
    std::size_t shared = 0;
    cudaStream_t stream = nullptr;
  } params;
  std::uint32_t correlation = 0;
  const auto call = [&](CUpti_CallbackDomain domain, CUpti_CallbackId id,
                        CUpti_ApiCallbackSite site, const char* name) {
    CUpti_CallbackData data{};
    data.callbackSite = site;
    data.correlationId = correlation;
    data.context = static_cast<CUcontext>(const_cast<void*>(context));
    data.contextUid = 1;
    data.symbolName = name;
    data.functionParams = &params;
    data.functionReturnValue =
        domain == CUPTI_CB_DOMAIN_RUNTIME_API ? static_cast<void*>(&runtime_ok) : &driver_ok;
    cupti::on_cupti_callback(&watch, domain, id, &data);
  };
  constexpr int kLaunches = 200'000;
  const auto rt = CUPTI_CB_DOMAIN_RUNTIME_API;
  const auto dr = CUPTI_CB_DOMAIN_DRIVER_API;
  const double launch = median_ns(9, kLaunches, [&] {
    for (int i = 0; i < kLaunches; ++i) {
      const char* name = names[static_cast<std::size_t>(i) % names.size()].c_str();
      ++correlation;
      call(rt, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, CUPTI_API_ENTER, name);
      call(dr, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_ENTER, name);
      call(dr, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_API_EXIT, name);
      call(rt, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, CUPTI_API_EXIT, name);
    }
  });
  const double sync = median_ns(9, kLaunches, [&] {
    for (int i = 0; i < kLaunches; ++i) {
      ++correlation;
      call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, CUPTI_API_ENTER, nullptr);
      call(rt, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, CUPTI_API_EXIT, nullptr);
    }
  });
  std::printf("launch: %.1f ns per <<<>>> launch (4 callbacks, 64 kernels in turn)\n", launch);
  std::printf("launch: %.1f ns per cudaStreamSynchronize (2 callbacks)\n", sync);
}

// ---- nvtx: the hooks, fed by a fake NVTX export table, into a RunRecorder ----

// One buffer's worth of kernel records with long names, as the reader thread appends them.
trace::RecordBatch kernel_batch(const std::vector<std::string>& names, std::size_t kernels,
                                std::uint64_t& clock, std::uint32_t& correlation) {
  trace::RecordBatch batch;
  batch.kernels.reserve(kernels);
  for (std::size_t i = 0; i < kernels; ++i) {
    trace::RawKernel k;
    k.name = names[i % names.size()].c_str();
    k.start_ns = clock += 1'000;
    k.end_ns = k.start_ns + 500 + i % 97;
    k.correlation_id = ++correlation;
    k.grid = {128, 1, 1};
    k.block = {256, 1, 1};
    batch.kernels.push_back(k);
  }
  return batch;
}

void bench_nvtx() {
  RunRecorder recorder{[] {
    RunSettings s;
    s.output_directory = "/tmp";
    return s;
  }()};
  const testing::FakeNvtx nvtx{recorder};
  const auto push = [&](const char* name) { nvtx.push(name); };
  const auto pop = [&] { nvtx.pop(); };
  constexpr int kRanges = 200'000;
  const auto ranges = [&] {
    for (int i = 0; i < kRanges; ++i) {
      push("transformer block attention");
      push("aten::scaled_dot_product_attention");
      pop();
      pop();
    }
  };
  ranges();  // warm-up
  const double alone = median_ns(9, 2.0 * kRanges, ranges);
  std::printf("nvtx: %.1f ns per push and pop, nested two deep\n", alone);

  // The same while the reader thread appends buffers, for a second, with 2 us of the program's
  // own work between ranges: each push and pop timed alone, the slow ones counted.
  const std::vector<std::string> names = long_names(200);
  std::atomic<bool> stop{false};
  std::thread reader{[&] {
    std::uint64_t clock = 0;
    std::uint32_t correlation = 0;
    while (!stop.load()) {
      recorder.append(kernel_batch(names, 38'000, clock, correlation));
    }
  }};
  std::vector<double> each;
  const auto until = Clock::now() + std::chrono::seconds(1);
  while (Clock::now() < until) {
    const auto work = Clock::now() + std::chrono::microseconds(2);
    while (Clock::now() < work) {
    }
    const auto start = Clock::now();
    push("transformer block attention");
    pop();
    each.push_back(ns_since(start));
  }
  stop.store(true);
  reader.join();
  double slow_ns = 0.0;
  std::size_t slow = 0;
  for (const double t : each) {
    if (t > 1e5) {
      ++slow;
      slow_ns += t;
    }
  }
  std::sort(each.begin(), each.end());
  std::printf(
      "nvtx: push and pop while the reader appends, 1 s: %zu pairs, median %.0f ns, 99.9%% %.0f "
      "ns; %zu over 100 us, %.1f ms in those\n",
      each.size(), each[each.size() / 2], each[each.size() * 999 / 1000], slow, slow_ns / 1e6);
}

// ---- reader: the recorder's work per kernel record ----

void bench_reader() {
  RunSettings s;
  s.output_directory = "/tmp";
  RunRecorder recorder{s};
  std::atomic<std::uint64_t> unloads{0};  // as CUPTI's resource callbacks count them
  recorder.trust_name_pointers(&unloads);
  recorder.range_id("", "step");  // ranges exist: kernels outside them wait for a tag
  const std::vector<std::string> names = long_names(200);
  std::uint64_t clock = 0;
  std::uint32_t correlation = 0;
  // Past the timeline's room: the steady state of a long run.
  for (int i = 0; i < 2; ++i)
    recorder.append(kernel_batch(names, 38'000, clock, correlation));
  std::vector<trace::RecordBatch> batches;
  for (int i = 0; i < 9; ++i)
    batches.push_back(kernel_batch(names, 38'000, clock, correlation));
  std::size_t next = 0;
  const double per_record =
      median_ns(9, 38'000, [&] { recorder.append(std::move(batches[next++])); });
  std::printf("reader: %.1f ns per kernel record (200 names of 500-4,000 chars)\n", per_record);
}

// ---- checkpoint: the report of a long run, and how long it keeps the reader waiting ----

void bench_checkpoint() {
  RunSettings s;
  s.output_directory = "/tmp";
  RunRecorder recorder{s};
  const std::vector<std::string> names = long_names(300);
  std::uint64_t clock = 0;
  std::uint32_t correlation = 0;
  for (int i = 0; i < 80; ++i)  // 3,040,000 kernels: every name past its 10,000 samples
    recorder.append(kernel_batch(names, 38'000, clock, correlation));
  const double report = median_ns(5, 1.0, [&] { (void)recorder.report(false); });
  std::printf("checkpoint: %.2f ms per report (300 kernels, 10,000 samples each)\n", report / 1e6);
  // Reports back to back on one thread while another appends a 1,000-record batch every
  // millisecond for two seconds: how long each append waits.
  std::atomic<bool> stop{false};
  std::thread checkpoints{[&] {
    while (!stop.load())
      (void)recorder.report(false);
  }};
  std::vector<double> waits;
  const auto until = Clock::now() + std::chrono::seconds(2);
  while (Clock::now() < until) {
    trace::RecordBatch batch = kernel_batch(names, 1'000, clock, correlation);
    const auto start = Clock::now();
    recorder.append(std::move(batch));
    waits.push_back(ns_since(start));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  stop.store(true);
  checkpoints.join();
  const auto slow = std::count_if(waits.begin(), waits.end(), [](double t) { return t > 1e7; });
  std::sort(waits.begin(), waits.end());
  std::printf(
      "checkpoint: 1,000-record appends while reports run, 2 s: %zu appends, median %.2f ms, "
      "max %.2f ms, %lld over 10 ms\n",
      waits.size(), waits[waits.size() / 2] / 1e6, waits.back() / 1e6,
      static_cast<long long>(slow));
}

}  // namespace
}  // namespace kerntime::inject

int main(int argc, char** argv) {
  using namespace kerntime::inject;
  const auto wanted = [&](const char* section) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; ++i) {
      if (std::strcmp(argv[i], section) == 0) return true;
    }
    return false;
  };
  if (wanted("launch")) bench_launch();
  if (wanted("nvtx")) bench_nvtx();
  if (wanted("reader")) bench_reader();
  if (wanted("checkpoint")) bench_checkpoint();
  return 0;
}
