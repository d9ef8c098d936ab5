// SPDX-License-Identifier: Apache-2.0
// The seam tests use to run a real kerntime::Tracer over a fake CUPTI and a fake device
// synchronization, so the whole session runs on machines without a GPU.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <kerntime/tracer.hpp>

#include "cupti/cupti_api.hpp"

namespace kerntime::detail {

struct TracerAccess {
  /// A Tracer over `api`, synchronizing through `synchronize` (which returns what failed, or
  /// ""). `api` must outlive nothing else: the Tracer owns it.
  static Tracer make(const TracerOptions& options, std::unique_ptr<cupti::CuptiApi> api,
                     std::function<std::string()> synchronize);
  /// What make() and Tracer's public constructor share; `api` nullptr loads the real CUPTI.
  static std::unique_ptr<Tracer::Impl> start(const TracerOptions& options,
                                             std::unique_ptr<cupti::CuptiApi> api,
                                             std::function<std::string()> synchronize);
};

}  // namespace kerntime::detail
