// SPDX-License-Identifier: Apache-2.0
// A real kerntime::Tracer over a fake CUPTI and a fake device synchronization.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <kerntime/tracer.hpp>

#include "cupti/tracer_access.hpp"
#include "fake_cupti.hpp"

namespace kerntime::testing {

struct Traced {
  FakeCupti* fake;
  std::vector<std::string>* log;
  Tracer tracer;
};

// Builds a Tracer over a fresh fake; the fake's call log also records "sync".
inline std::unique_ptr<Traced> start(TracerOptions options = {}, std::string sync_failure = {},
                                     void (*setup)(FakeCupti&) = nullptr) {
  auto api = std::make_unique<FakeCupti>();
  FakeCupti* fake = api.get();
  if (setup != nullptr) setup(*fake);
  std::vector<std::string>* log = &fake->calls;
  auto sync = [log, sync_failure] {
    log->push_back("sync");
    return sync_failure;
  };
  return std::unique_ptr<Traced>(
      new Traced{fake, log, detail::TracerAccess::make(options, std::move(api), sync)});
}

inline std::ptrdiff_t position(const std::vector<std::string>& calls, const std::string& call) {
  auto it = std::find(calls.begin(), calls.end(), call);
  return it == calls.end() ? -1 : it - calls.begin();
}

inline bool mentions(const Trace& trace, const std::string& text) {
  return std::any_of(trace.warnings.begin(), trace.warnings.end(),
                     [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

inline std::string kind(CUpti_ActivityKind k) {
  return "enable " + std::to_string(static_cast<int>(k));
}

}  // namespace kerntime::testing
