// SPDX-License-Identifier: Apache-2.0
// How often a successful synchronization flushes CUPTI's completed buffers on the program's
// thread. A GPU fault leaves CUPTI unable to hand over what the faulted context recorded: in
// `kerntime run`'s fault tests none of the 10 kernels that had finished before the fault reached
// the report (H100 and H200, 2026-12-05), since the last flush had been a checkpoint's, up to
// 2 s before. At a synchronization's exit the records of what it saw finish are complete, so a
// flush there hands them to the recorder before anything launched after it can fault, as the
// reference reader does at every synchronization. Since it runs on the program's thread, a token
// bucket paces it: the flushes take at most 1 / kShare of the time, after a burst that lets a
// short program flush at every synchronization. A synchronization (or a successful query) with
// nothing launched since the last flush does not flush: a polling loop would spend the bucket on
// flushes that hand over nothing new, and leave none for the one before a fault.
#pragma once

#include <atomic>
#include <cstdint>

namespace kerntime::inject {

class SyncFlushPacer {
 public:
  /// The flushes take at most one part in kShare of the time, over the long run.
  static constexpr std::int64_t kShare = 1000;
  /// The flush time the bucket holds, and starts with.
  static constexpr std::int64_t kBurstNs = 2'000'000;

  /// Whether a synchronization ending at `now_ns` (a steady clock), with `launches` counted so
  /// far, flushes. While one flush runs, every other synchronization is refused; a true answer
  /// must be followed by done().
  bool begin(std::uint64_t now_ns, std::uint64_t launches);
  /// The flush that begin() allowed ran from `began_ns` to `ended_ns`.
  void done(std::uint64_t began_ns, std::uint64_t ended_ns);

  /// The flush time the bucket holds now, negative while a flush that cost more than it held
  /// is earned back (for the tests).
  std::int64_t tokens_ns() const { return tokens_ns_; }

 private:
  std::atomic<bool> busy_{false};
  // The launches counted when the last flush began (written only by the thread that set busy_).
  std::atomic<std::uint64_t> flushed_launches_{0};
  // Read and written only by the thread that set busy_.
  std::int64_t tokens_ns_ = kBurstNs;
  std::uint64_t refilled_at_ns_ = 0;
  bool started_ = false;
};

}  // namespace kerntime::inject
