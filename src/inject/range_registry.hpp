// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kerntime::inject {

/// The NVTX range names and nestings of one `kerntime run` process, each with its id for the
/// whole process: what a range id and a range path id stand for. Behind its own short lock,
/// never the recorder's: a program thread that opens a range it has not opened before waits
/// here for a map lookup at most, never for a buffer being read or a report being built. The
/// threads' caches (ThreadRanges) keep a known range from coming here at all.
///
/// Entries are only added, never changed, so a copy of the first N is valid for good.
class RangeRegistry {
 public:
  /// Distinct nestings of NVTX ranges kept (16 bytes each, and a map entry): far more than a
  /// program has unless it nests ranges whose names never repeat.
  static constexpr std::size_t kMaxPaths = std::size_t{1} << 16;
  /// How deep a path is followed when it is named or a kernel is credited to its ranges.
  static constexpr std::size_t kMaxDepth = 64;

  struct Range {
    std::string name;     ///< as the report shows it: "nvtx:NAME" or "nvtx:DOMAIN:NAME"
    std::string message;  ///< NAME, "(unnamed)" for an empty one
    std::string domain;
  };
  struct Path {
    std::uint64_t parent;  ///< path id, 0: none
    std::uint64_t range;   ///< range id
  };

  /// The id (never 0) of range `name` in `domain` ("": the default domain); ranges that read
  /// alike in the report ("nvtx:a:b:c") share one.
  std::uint64_t range_id(std::string_view domain, std::string_view name);
  /// The id (never 0) of range `range` opened while path `parent` was open (0: none); 0 for an
  /// unknown range. Past kMaxPaths nestings a new one is made as if opened alone: `exact` is
  /// false then, and the opening is counted (folded()).
  std::uint64_t path_id(std::uint64_t parent, std::uint64_t range, bool& exact);

  /// Ranges named so far; read without the lock.
  std::uint64_t range_count() const { return range_count_.load(std::memory_order_acquire); }
  /// Appends the ranges and paths `ranges` and `paths` do not hold yet (they hold a prefix).
  void copy_new(std::vector<Range>* ranges, std::vector<Path>* paths) const;
  /// Openings made past kMaxPaths.
  std::uint64_t folded() const;

  /// The ranges of path `path`, outermost first: `range "step"` or `ranges "outer" > "step"`
  /// (a named domain's as "DOMAIN:NAME"); "" for none or an unknown id.
  std::string path_text(std::uint64_t path) const;

 private:
  std::uint64_t add_path(std::uint64_t parent, std::uint64_t range);

  mutable std::mutex mutex_;
  std::vector<Range> ranges_;  // range id - 1
  std::unordered_map<std::string, std::uint64_t> range_ids_;
  std::vector<Path> paths_;                                    // path id - 1
  std::unordered_map<std::uint64_t, std::uint64_t> path_ids_;  // (parent, range) -> path id
  std::uint64_t folded_ = 0;
  std::atomic<std::uint64_t> range_count_{0};
};

}  // namespace kerntime::inject
