// SPDX-License-Identifier: Apache-2.0
#include "inject/last_launch.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace/names.hpp"

namespace kerntime::inject {
namespace {

constexpr std::uint8_t kGraph = 1;
constexpr std::uint8_t kPerThreadStream = 2;
constexpr std::uint8_t kTruncated = 4;

// The launching thread's slot, found once per thread and LaunchSlots (tests make several, and a
// new one may sit where an old one was). nullptr with the owner set: every slot was taken.
std::atomic<std::uint64_t> next_instance{1};
thread_local std::uint64_t t_owner = 0;
thread_local void* t_slot = nullptr;

std::string stream_text(std::uintptr_t stream, bool per_thread) {
  // cudaStreamLegacy and cudaStreamPerThread are the handles 0x1 and 0x2.
  if (stream == 0) return per_thread ? "the thread's default stream" : "the default stream";
  if (stream == 0x1) return "the legacy default stream";
  if (stream == 0x2) return "the per-thread default stream";
  char text[32];
  std::snprintf(text, sizeof text, "stream 0x%llx", static_cast<unsigned long long>(stream));
  return text;
}

}  // namespace

LaunchSlots::LaunchSlots() : id_(next_instance.fetch_add(1)) {}

LaunchSlots::Slot* LaunchSlots::claim() noexcept {
  if (t_owner == id_) return static_cast<Slot*>(t_slot);
  t_owner = id_;
  t_slot = nullptr;
  const std::size_t index = claimed_.fetch_add(1, std::memory_order_relaxed);
  if (index >= kThreads) {
    left_out_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  Slot* slot = &slots_[index];
  slot->thread.store(static_cast<pid_t>(syscall(SYS_gettid)), std::memory_order_relaxed);
  t_slot = slot;
  return slot;
}

void LaunchSlots::publish(const char* kernel, bool graph, std::int32_t device,
                          std::uint32_t context_id, const void* stream, bool per_thread_stream,
                          std::uint32_t correlation_id, std::uint64_t range_path) noexcept {
  Slot* slot = claim();
  if (slot == nullptr) return;
  const std::uint32_t sequence = slot->sequence.load(std::memory_order_relaxed);
  slot->sequence.store(sequence + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);

  std::uint8_t flags = (graph ? kGraph : 0) | (per_thread_stream ? kPerThreadStream : 0);
  if (graph || kernel == nullptr) {
    slot->name_length.store(0, std::memory_order_relaxed);
    slot->name_source = nullptr;
  } else if (kernel != slot->name_source) {
    // The pointer is CUPTI's, one per kernel: a launch loop copies its name once. (A module
    // unloaded and another loaded at the same address would keep the old text; the records'
    // name cache has the same blind spot without the harm: it compares the text.)
    // Whole words with one load each, then the tail: PyTorch launches a different
    // kernel nearly every time, so this copy runs on most launches.
    const std::size_t length = strnlen(kernel, kNameBytes - 1);
    const std::size_t whole = length / 8;
    for (std::size_t w = 0; w < whole; ++w) {
      std::uint64_t word;
      std::memcpy(&word, kernel + w * 8, 8);
      slot->name[w].store(word, std::memory_order_relaxed);
    }
    if (const std::size_t tail = length % 8; tail != 0) {
      std::uint64_t word = 0;
      std::memcpy(&word, kernel + whole * 8, tail);
      slot->name[whole].store(word, std::memory_order_relaxed);
    }
    slot->name_length.store(static_cast<std::uint32_t>(length), std::memory_order_relaxed);
    slot->name_source = kernel;
    if (length == kNameBytes - 1 && kernel[length] != '\0') flags |= kTruncated;
  } else if (slot->name_length.load(std::memory_order_relaxed) == kNameBytes - 1 &&
             kernel[kNameBytes - 1] != '\0') {
    flags |= kTruncated;
  }
  const std::uint64_t launches = slot->launches.load(std::memory_order_relaxed) + 1;
  Launch& launch = slot->recent[(launches - 1) % kRecent];
  launch.flags.store(flags, std::memory_order_relaxed);
  launch.device.store(device, std::memory_order_relaxed);
  launch.context_id.store(context_id, std::memory_order_relaxed);
  launch.stream.store(reinterpret_cast<std::uintptr_t>(stream), std::memory_order_relaxed);
  launch.correlation_id.store(correlation_id, std::memory_order_relaxed);
  launch.range_path.store(range_path, std::memory_order_relaxed);
  launch.name.store(graph ? nullptr : kernel, std::memory_order_relaxed);
  slot->launches.store(launches, std::memory_order_relaxed);
  slot->sequence.store(sequence + 2, std::memory_order_release);
}

bool LaunchSlots::read(const Slot& slot, std::vector<RecentLaunch>& out) const {
  // A slot whose thread stopped halfway through a write (it crashed inside publish) stays odd:
  // it is given up after a few tries.
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::uint32_t before = slot.sequence.load(std::memory_order_acquire);
    if (before == 0) return false;  // claimed, never written
    if (before % 2 != 0) continue;
    const pid_t thread = slot.thread.load(std::memory_order_relaxed);
    const std::uint64_t launches = slot.launches.load(std::memory_order_relaxed);
    const std::uint64_t kept = std::min<std::uint64_t>(launches, kRecent);
    RecentLaunch taken[kRecent];
    for (std::uint64_t k = 0; k < kept; ++k) {
      const std::uint64_t number = launches - kept + 1 + k;
      const Launch& from = slot.recent[(number - 1) % kRecent];
      LastLaunch& launch = taken[k].launch;
      const std::uint8_t flags = from.flags.load(std::memory_order_relaxed);
      launch.graph = (flags & kGraph) != 0;
      launch.per_thread_stream = (flags & kPerThreadStream) != 0;
      launch.name_truncated = (flags & kTruncated) != 0;
      launch.device = from.device.load(std::memory_order_relaxed);
      launch.context_id = from.context_id.load(std::memory_order_relaxed);
      launch.stream = from.stream.load(std::memory_order_relaxed);
      launch.correlation_id = from.correlation_id.load(std::memory_order_relaxed);
      launch.range_path = from.range_path.load(std::memory_order_relaxed);
      launch.thread = thread;
      launch.thread_launches = number;
      taken[k].name_pointer = from.name.load(std::memory_order_relaxed);
      taken[k].newest = k + 1 == kept;
      taken[k].oldest_kept = k == 0 && launches > kept;
    }
    const std::size_t length =
        std::min<std::size_t>(slot.name_length.load(std::memory_order_relaxed), kNameBytes - 1);
    char name[kNameBytes] = {};
    for (std::size_t at = 0; at < length; at += 8) {
      const std::uint64_t word = slot.name[at / 8].load(std::memory_order_relaxed);
      std::memcpy(name + at, &word, std::min<std::size_t>(8, kNameBytes - at));
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot.sequence.load(std::memory_order_relaxed) != before) continue;
    if (kept == 0) return false;
    // The copied text is the newest launch's kernel, and so of every launch of its pointer.
    const char* copied = taken[kept - 1].name_pointer;
    for (std::uint64_t k = 0; k < kept; ++k) {
      if (copied != nullptr && taken[k].name_pointer == copied) {
        taken[k].launch.kernel.assign(name, length);
      } else {
        taken[k].launch.name_truncated = false;  // said of the copy only
      }
      out.push_back(std::move(taken[k]));
    }
    return true;
  }
  return false;
}

std::optional<LastLaunch> LaunchSlots::last() const {
  std::optional<LastLaunch> newest;
  const std::size_t used = std::min(claimed_.load(std::memory_order_acquire), kThreads);
  std::vector<RecentLaunch> launches;
  launches.reserve(kRecent);
  for (std::size_t i = 0; i < used; ++i) {
    launches.clear();
    if (!read(slots_[i], launches)) continue;
    LastLaunch& launch = launches.back().launch;
    if (!newest || launch.correlation_id > newest->correlation_id) newest = std::move(launch);
  }
  return newest;
}

std::vector<RecentLaunch> LaunchSlots::recent() const {
  std::vector<RecentLaunch> launches;
  const std::size_t used = std::min(claimed_.load(std::memory_order_acquire), kThreads);
  for (std::size_t i = 0; i < used; ++i)
    read(slots_[i], launches);
  return launches;
}

std::string describe_last_launch(const LastLaunch& launch, const std::string& thread_name) {
  std::string text;
  if (launch.graph) {
    text = "a CUDA graph";
  } else if (launch.kernel.empty()) {
    text = "a kernel whose name CUPTI did not give";
  } else {
    const std::optional<std::string> demangled =
        launch.name_truncated ? std::nullopt : trace::demangle(launch.kernel);
    text = demangled ? *demangled : launch.kernel;
    if (launch.name_truncated) text += "... (the name is cut after 255 bytes)";
  }
  text += launch.device >= 0 ? " on device " + std::to_string(launch.device)
                             : std::string{" on an unknown device"};
  text += ", " + stream_text(launch.stream, launch.per_thread_stream);
  text += ", from thread " + std::to_string(launch.thread);
  if (!thread_name.empty()) text += " (" + thread_name + ")";
  if (!launch.ranges.empty()) text += ", inside NVTX " + launch.ranges;
  text += ", its launch " + std::to_string(launch.thread_launches) + " (CUPTI correlation id " +
          std::to_string(launch.correlation_id) + ")";
  return text;
}

std::string thread_name(pid_t thread) {
  std::ifstream comm{"/proc/self/task/" + std::to_string(thread) + "/comm"};
  std::string name;
  std::getline(comm, name);
  return name;
}

}  // namespace kerntime::inject
