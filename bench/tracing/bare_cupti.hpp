// SPDX-License-Identifier: Apache-2.0
// The baseline that separates CUPTI's own cost from kerntime's: the same activity kinds a
// default kerntime::Tracer enables, through the same dlopen'ed CUPTI interface, but with none of
// kerntime's buffer handling (no pool cap, no reader thread, no decoding, no scope table):
// buffers are recycled unread. Whatever a launch costs under it is what CUPTI itself costs.
#pragma once

#include <cstdint>
#include <memory>

namespace kerntime::cupti {
class CuptiApi;
}

namespace trace_examples {

class BareCupti {
 public:
  /// Subscribes and enables; throws kerntime::Error naming the CUPTI call that failed.
  BareCupti();
  /// stop(); never throws.
  ~BareCupti();
  BareCupti(const BareCupti&) = delete;
  BareCupti& operator=(const BareCupti&) = delete;

  /// What a kerntime scope does to CUPTI when it opens and closes (one external id per scope).
  void push(std::uint64_t id);
  void pop();

  /// Synchronizes the device, flushes, disables and unsubscribes. Idempotent.
  void stop();

  /// Bytes of records CUPTI delivered (they are not read), and records it dropped.
  std::uint64_t delivered_bytes() const;
  std::uint64_t dropped_records() const { return dropped_; }

 private:
  std::unique_ptr<kerntime::cupti::CuptiApi> api_;
  bool running_ = false;
  std::uint64_t dropped_ = 0;
};

}  // namespace trace_examples
