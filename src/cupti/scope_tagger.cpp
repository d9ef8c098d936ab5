// SPDX-License-Identifier: Apache-2.0
#include "cupti/scope_tagger.hpp"

#include <algorithm>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "events/scope_listener.hpp"

namespace kerntime::cupti {
namespace {

std::atomic<std::uint64_t> last_generation{0};

/// The scopes this thread opened under one tagger (a new tagger starts from an empty stack,
/// whatever an earlier one left when it stopped mid-scope).
struct ThreadScopes {
  std::uint64_t generation = 0;
  std::vector<std::uint64_t> open;
};
thread_local ThreadScopes thread_scopes;

std::vector<std::uint64_t>& open_scopes(std::uint64_t generation) {
  if (thread_scopes.generation != generation) {
    thread_scopes.generation = generation;
    thread_scopes.open.clear();
  }
  return thread_scopes.open;
}

std::uint64_t os_thread_id() {
  return static_cast<std::uint64_t>(::syscall(SYS_gettid));
}

/// The listener installed in the seam. It never goes away before the process ends (it holds
/// only atomics, so its destruction at exit frees nothing), and it counts the threads inside
/// it so that detaching can wait for them.
class Forwarder final : public events::ScopeListener {
 public:
  void scope_begin(std::uint64_t scope_id, std::string_view name) noexcept override {
    in_flight_.fetch_add(1);
    if (ScopeTagger* tagger = target_.load()) tagger->begin(scope_id, name);
    in_flight_.fetch_sub(1);
  }
  void scope_end(std::uint64_t scope_id) noexcept override {
    in_flight_.fetch_add(1);
    if (ScopeTagger* tagger = target_.load()) tagger->end(scope_id);
    in_flight_.fetch_sub(1);
  }
  void route(ScopeTagger* tagger) noexcept {
    target_.store(tagger);
    // Sequentially consistent: a thread that saw the old tagger incremented in_flight_ first.
    while (in_flight_.load() != 0)
      std::this_thread::yield();
  }

 private:
  std::atomic<ScopeTagger*> target_{nullptr};
  std::atomic<int> in_flight_{0};
};

Forwarder& forwarder() {
  static Forwarder instance;
  return instance;
}

}  // namespace

ScopeTagger::ScopeTagger(CuptiApi& api, trace::ScopeTable& table)
    : api_(api), table_(table), generation_(last_generation.fetch_add(1) + 1) {}

void ScopeTagger::begin(std::uint64_t scope_id, std::string_view name) noexcept {
  try {
    std::vector<std::uint64_t>& open = open_scopes(generation_);
    const std::uint64_t parent = open.empty() ? 0 : open.back();
    if (api_.push_external_id(scope_id) != CUPTI_SUCCESS) {
      failed_pushes_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    open.push_back(scope_id);
    table_.record(scope_id, parent, name, os_thread_id());
  } catch (...) {
    // Out of memory while recording: the scope stays unattributed rather than failing the app.
    mismatches_.fetch_add(1, std::memory_order_relaxed);
  }
}

void ScopeTagger::end(std::uint64_t scope_id) noexcept {
  std::vector<std::uint64_t>& open = open_scopes(generation_);
  // Scopes opened before this tagger started were never pushed: nothing to pop.
  const auto it = std::find(open.begin(), open.end(), scope_id);
  if (it == open.end()) return;
  if (std::next(it) != open.end()) mismatches_.fetch_add(1, std::memory_order_relaxed);
  while (!open.empty()) {
    const std::uint64_t expected = open.back();
    open.pop_back();
    std::uint64_t popped = 0;
    if (api_.pop_external_id(popped) != CUPTI_SUCCESS || popped != expected) {
      mismatches_.fetch_add(1, std::memory_order_relaxed);
    }
    if (expected == scope_id) break;
  }
}

void route_scopes_to(cupti::ScopeTagger* tagger) noexcept {
  Forwarder& instance = forwarder();
  if (tagger != nullptr) {
    instance.route(tagger);
    events::set_scope_listener(&instance);
  } else {
    if (events::scope_listener() == &instance) events::set_scope_listener(nullptr);
    instance.route(nullptr);
  }
}

}  // namespace kerntime::cupti
