// SPDX-License-Identifier: Apache-2.0
#include <atomic>
#include <cmath>
#include <string>
#include <utility>

#include <kerntime/error.hpp>
#include <kerntime/gpu_status.hpp>
#include <kerntime/session.hpp>
#include <kerntime/statistics.hpp>

#include "cuda/cuda_check.hpp"
#include "events/session_impl.hpp"

namespace kerntime {

using cuda::check_cuda;
using events::EventPool;

namespace {
std::uint64_t next_session_serial() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}
}  // namespace

Session::Impl::Impl(SessionOptions opts) : options(std::move(opts)), serial(next_session_serial()) {
  int count = 0;
  cuda::check_cuda(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  pools.resize(static_cast<std::size_t>(count));
  if (options.nvtx_ranges) nvtx_domain = nvtxDomainCreateA("kerntime");
}

std::uint32_t Session::Impl::region_id(std::string_view name) {
  if (auto it = region_index.find(name); it != region_index.end()) return it->second;
  if (name.empty()) throw Error("a timed region needs a non-empty name");
  const auto id = static_cast<std::uint32_t>(regions.size());
  events::RegionData& region = regions.emplace_back();
  region.name = std::string{name};
  if (nvtx_domain != nullptr) {
    region.nvtx_name = nvtxDomainRegisterStringA(nvtx_domain, region.name.c_str());
  }
  region_index.emplace(region.name, id);
  return id;
}

events::EventPool& Session::Impl::pool(int device) {
  if (device < 0 || static_cast<std::size_t>(device) >= pools.size()) {
    throw Error("device " + std::to_string(device) + " is not visible to CUDA (" +
                std::to_string(pools.size()) + " devices); see 'kerntime info'");
  }
  auto& slot = pools[static_cast<std::size_t>(device)];
  if (!slot) {
    slot = std::make_unique<EventPool>(device, options.event_pairs_per_device,
                                       options.name_faulting_scopes);
  }
  return *slot;
}

std::string Session::Impl::describe_error(cudaError_t error, const std::string& call) const {
  if (!cuda::is_sticky_kernel_fault(error)) return cuda::describe_cuda_error(error, call, {});
  // The oldest closed scope the GPU did not finish holds the fault (per device; scopes on other
  // streams may have been in flight beside it).
  std::string where;
  bool known = false;
  for (const auto& pool : pools) {
    if (!pool) continue;
    if (!pool->completion().available()) continue;
    known = true;
    for (std::size_t i = 0; i < pool->closed_count(); ++i) {
      const events::ClosedTimer& timer = pool->closed_at(i);
      if (pool->completion().reached(timer.slot)) continue;
      if (!where.empty()) where += ", and on device " + std::to_string(pool->device()) + " ";
      where += "timed region \"" + regions[timer.region].name + "\" (device " +
               std::to_string(pool->device()) + ")";
      break;
    }
  }
  std::string message = call + " failed: " + cudaGetErrorName(error) + " (" +
                        cudaGetErrorString(error) + "): a kernel faulted ";
  if (!known) {
    message += "somewhere before this call (kerntime cannot tell where on this system)";
  } else if (where.empty()) {
    message += "after the last closed timed scope, in a scope still open or outside any";
  } else {
    message += "inside " + where + ", the first timed scope the GPU did not finish";
  }
  return message +
         ". CUDA refuses every further call in this process after such a fault; samples read "
         "before it are kept. Run the program under compute-sanitizer to find the faulting "
         "line.";
}

void Session::Impl::defer_error(std::string message) {
  ++lost_samples;
  if (deferred_error.empty()) deferred_error = std::move(message);
}

bool Session::Impl::read_oldest(events::EventPool& pool, bool wait) {
  const events::ClosedTimer timer = pool.oldest_closed();
  const cudaEvent_t stop = pool.stop(timer.slot);
  cudaError_t status = wait ? cudaEventSynchronize(stop) : cudaEventQuery(stop);
  if (status == cudaErrorNotReady) return false;
  float milliseconds = 0.0f;
  if (status == cudaSuccess) {
    status = cudaEventElapsedTime(&milliseconds, pool.start(timer.slot), stop);
  }
  if (status == cudaSuccess) {
    events::RegionData& region = regions[timer.region];
    // Event timestamps resolve about half a microsecond; a whole nanosecond loses nothing.
    region.samples.push_back(std::round(static_cast<double>(milliseconds) * 1e6));
    if (region.device == -1) region.device = pool.device();
    if (region.device != pool.device()) region.device = -2;
  } else {
    (void)cudaGetLastError();
    defer_error(describe_error(
        status, "reading the events of region \"" + regions[timer.region].name + "\""));
  }
  pool.retire_oldest();
  return true;
}

std::uint32_t Session::Impl::acquire(events::EventPool& pool) {
  std::uint32_t slot = 0;
  if (pool.try_acquire(slot)) return slot;
  while (pool.closed_count() > 0 && read_oldest(pool, false)) {
  }
  if (pool.try_acquire(slot)) return slot;
  if (pool.closed_count() == 0) {
    throw Error("all " + std::to_string(pool.capacity()) + " event pairs of device " +
                std::to_string(pool.device()) +
                " belong to timers that are still open; close timers or raise "
                "SessionOptions::event_pairs_per_device");
  }
  read_oldest(pool, true);
  pool.try_acquire(slot);
  return slot;
}

void Session::Impl::read_all() {
  for (auto& pool : pools) {
    if (!pool) continue;
    while (pool->closed_count() > 0)
      read_oldest(*pool, true);
  }
}

Session::Session(SessionOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  std::vector<int> devices = impl_->options.devices;
  if (devices.empty()) {
    int current = 0;
    cuda::check_cuda(cudaGetDevice(&current), "cudaGetDevice");
    devices.push_back(current);
  }
  std::lock_guard lock{impl_->mutex};
  for (int device : devices)
    impl_->pool(device);
}

Session::~Session() = default;

Region Session::region(std::string_view name) {
  std::lock_guard lock{impl_->mutex};
  return Region{impl_->region_id(name), impl_->serial};
}

void Session::resolve() {
  std::lock_guard lock{impl_->mutex};
  impl_->read_all();
  if (!impl_->deferred_error.empty()) {
    std::string message = std::move(impl_->deferred_error);
    const std::size_t lost = impl_->lost_samples;
    impl_->deferred_error.clear();
    impl_->lost_samples = 0;
    throw Error(message + " (" + std::to_string(lost) +
                " timed scope(s) lost; all other samples are kept)");
  }
}

std::size_t Session::in_flight() const {
  std::lock_guard lock{impl_->mutex};
  std::size_t count = 0;
  for (const auto& pool : impl_->pools) {
    if (pool) count += pool->closed_count() + pool->open_count();
  }
  return count;
}

std::vector<double> Session::samples(std::string_view name) {
  resolve();
  std::lock_guard lock{impl_->mutex};
  auto it = impl_->region_index.find(name);
  if (it == impl_->region_index.end()) return {};
  return impl_->regions[it->second].samples;
}

Report Session::report() {
  resolve();
  Report report;
  std::vector<int> devices;
  {
    std::lock_guard lock{impl_->mutex};
    for (const events::RegionData& region : impl_->regions) {
      Entry entry;
      entry.name = region.name;
      entry.timer = "cuda-event";
      if (region.device >= 0) entry.device = region.device;
      entry.samples = region.samples;
      report.entries.push_back(std::move(entry));
    }
    for (std::size_t d = 0; d < impl_->pools.size(); ++d) {
      if (impl_->pools[d]) devices.push_back(static_cast<int>(d));
    }
  }
  for (Entry& entry : report.entries)
    entry.statistics = compute_statistics(entry.samples);
  report.environment = current_environment(devices);
  return report;
}

}  // namespace kerntime
