// SPDX-License-Identifier: Apache-2.0
#include "bench/cupti_spans.hpp"

#include <algorithm>
#include <limits>

namespace kerntime::bench {
namespace {

constexpr int kMaxNesting = 64;

struct Span {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t last = 0;
  std::uint64_t sum = 0;
  std::size_t count = 0;
};

class Attributor {
 public:
  Attributor(const Trace& trace, const std::vector<std::uint64_t>& ids)
      : trace_(trace), ids_(ids), spans_(ids.size()) {}

  void add(std::uint64_t scope, std::uint64_t start, std::uint64_t end) {
    const std::optional<std::size_t> index = own(scope);
    if (!index) return;
    Span& span = spans_[*index];
    span.first = std::min(span.first, start);
    span.last = std::max(span.last, end);
    span.sum += end > start ? end - start : 0;
    ++span.count;
  }

  std::vector<std::optional<ScopeTime>> result() const {
    std::vector<std::optional<ScopeTime>> out(spans_.size());
    for (std::size_t i = 0; i < spans_.size(); ++i) {
      const Span& s = spans_[i];
      if (s.count > 0 && s.last >= s.first) {
        out[i] =
            ScopeTime{static_cast<double>(s.last - s.first), static_cast<double>(s.sum), s.count};
      }
    }
    return out;
  }

 private:
  // The sample whose scope is `scope` or encloses it (a launcher may time its own scopes).
  std::optional<std::size_t> own(std::uint64_t scope) const {
    for (int depth = 0; scope != 0 && depth < kMaxNesting; ++depth) {
      const auto it = std::lower_bound(ids_.begin(), ids_.end(), scope);
      if (it != ids_.end() && *it == scope) return static_cast<std::size_t>(it - ids_.begin());
      const TraceScope* known = trace_.find_scope(scope);
      if (known == nullptr) return std::nullopt;
      scope = known->parent_id;
    }
    return std::nullopt;
  }

  const Trace& trace_;
  const std::vector<std::uint64_t>& ids_;
  std::vector<Span> spans_;
};

}  // namespace

std::vector<std::optional<ScopeTime>> scope_times(const Trace& trace,
                                                  const std::vector<std::uint64_t>& scope_ids) {
  Attributor attributor{trace, scope_ids};
  for (const KernelActivity& k : trace.kernels) {
    if (k.scope_id != 0) attributor.add(k.scope_id, k.start_ns, k.end_ns);
  }
  for (const MemcpyActivity& c : trace.memcpys) {
    if (c.scope_id != 0) attributor.add(c.scope_id, c.start_ns, c.end_ns);
  }
  for (const MemsetActivity& s : trace.memsets) {
    if (s.scope_id != 0) attributor.add(s.scope_id, s.start_ns, s.end_ns);
  }
  return attributor.result();
}

}  // namespace kerntime::bench
