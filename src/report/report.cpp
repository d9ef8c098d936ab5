// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <string>
#include <vector>

#include <kerntime/error.hpp>
#include <kerntime/report.hpp>

namespace kerntime {

std::size_t Entry::run_count() const {
  return run_sizes.empty() ? 1 : run_sizes.size();
}

std::vector<std::vector<double>> Entry::runs() const {
  if (run_sizes.empty()) return {samples};
  std::vector<std::vector<double>> out;
  out.reserve(run_sizes.size());
  std::size_t start = 0;
  for (std::size_t i = 0; i < run_sizes.size(); ++i) {
    const std::size_t size = run_sizes[i];
    if (size == 0 || size > samples.size() - start) {
      throw Error("entry \"" + name + "\": run_sizes[" + std::to_string(i) + "] is " +
                  std::to_string(size) + ", but " + std::to_string(samples.size() - start) +
                  " samples are left; every run needs at least one sample and the runs must "
                  "partition the samples");
    }
    out.emplace_back(samples.begin() + static_cast<std::ptrdiff_t>(start),
                     samples.begin() + static_cast<std::ptrdiff_t>(start + size));
    start += size;
  }
  if (start != samples.size()) {
    throw Error("entry \"" + name + "\": its runs hold " + std::to_string(start) +
                " samples, but it has " + std::to_string(samples.size()) +
                "; the runs must partition the samples");
  }
  return out;
}

// A linear search: reports hold tens of entries, and an index would have to be kept in sync
// with a public vector that callers may edit.
const Entry* Report::find(const std::string& name) const {
  const auto it = std::find_if(entries.begin(), entries.end(),
                               [&](const Entry& entry) { return entry.name == name; });
  return it == entries.end() ? nullptr : &*it;
}

}  // namespace kerntime
