// SPDX-License-Identifier: Apache-2.0
// The capture windows `kerntime run` records in, and the snapshot a batch is tested against.
#include "inject/capture_windows.hpp"

#include <gtest/gtest.h>

namespace kerntime::inject {
namespace {

TEST(CaptureWindows, NestedOpeningsKeepOneWindowAndBoundsClipIt) {
  CaptureWindows windows(false);
  EXPECT_FALSE(windows.contains(5));
  windows.open(10);
  windows.open(20);
  windows.close(30);
  EXPECT_TRUE(windows.contains(35));
  windows.close(40);
  EXPECT_FALSE(windows.contains(40));
  EXPECT_TRUE(windows.contains(10));
  windows.close(50);  // a stop without a start changes nothing
  windows.bound(15, 38);
  EXPECT_FALSE(windows.contains(12));
  EXPECT_TRUE(windows.contains(15));
  EXPECT_FALSE(windows.contains(38));
  EXPECT_EQ(windows.opened(), 1u);
}

// The recorder tests a batch's kernels against the windows as they were when the batch came:
// a snapshot answers as the windows did then, and follows them once refreshed.
TEST(CaptureWindows, ASnapshotAnswersAsTheWindowsDidWhenItWasTaken) {
  CaptureWindows windows(false);
  windows.bound(5, std::nullopt);
  CaptureWindows::Snapshot snapshot;
  windows.refresh(snapshot);
  EXPECT_FALSE(snapshot.contains(10));
  windows.open(10);
  EXPECT_FALSE(snapshot.contains(12));
  windows.refresh(snapshot);
  EXPECT_TRUE(snapshot.contains(12));
  windows.close(20);
  EXPECT_TRUE(snapshot.contains(25));  // still open as of the snapshot
  windows.refresh(snapshot);
  EXPECT_FALSE(snapshot.contains(25));
  EXPECT_TRUE(snapshot.contains(15));
  windows.bound(16, 100);
  windows.refresh(snapshot);
  EXPECT_FALSE(snapshot.contains(15));
  for (const std::uint64_t t : {4, 10, 19, 20, 99})
    EXPECT_EQ(snapshot.contains(t), windows.contains(t)) << t;
}

}  // namespace
}  // namespace kerntime::inject
