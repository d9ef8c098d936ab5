// SPDX-License-Identifier: Apache-2.0
// Chrome trace event JSON, written straight into one buffer with fmt: a million kernels make a
// few hundred MB of text, too much to build as a JSON document first.
#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include <kerntime/trace_format.hpp>

#include "format/trace/trace_text.hpp"
#include "io/file_writer.hpp"
#include "io/json_text.hpp"

namespace kerntime {
namespace {

using Buffer = fmt::memory_buffer;
constexpr int kHostPid = 0;

int gpu_pid(std::uint32_t device) {
  return static_cast<int>(device) + 1;
}
// Each stream gets two tracks: its work, and the spans of the scopes that launched it (kept
// apart because spans of scopes on different threads may overlap without nesting).
std::uint64_t work_tid(std::uint32_t stream) {
  return std::uint64_t{stream} * 2;
}
std::uint64_t scope_tid(std::uint32_t stream) {
  return std::uint64_t{stream} * 2 + 1;
}

void put(Buffer& out, std::string_view text) {
  out.append(text.data(), text.data() + text.size());
}

// The one JSON string policy (io/json_text.hpp): kernel names with bytes that are not UTF-8
// get U+FFFD, never invalid JSON.
void append_string(Buffer& out, std::string_view text) {
  std::string quoted;
  io::append_json_string(quoted, text);
  put(out, quoted);
}

class Writer {
 public:
  explicit Writer(std::uint64_t origin) : origin_(origin) {}

  // Microseconds with three decimals from integer nanoseconds: exact, no float rounding.
  std::string ts(std::uint64_t ns) const {
    const std::uint64_t since = ns - origin_;
    return fmt::format("{}.{:03}", since / 1000, since % 1000);
  }
  std::string dur(std::uint64_t ns) const { return fmt::format("{}.{:03}", ns / 1000, ns % 1000); }

  /// Starts an event: `{"name":...,"cat":...,"ph":...,"pid":...,"tid":...` (no closing brace).
  Buffer& begin(std::string_view name, std::string_view category, char phase, int pid,
                std::uint64_t tid) {
    put(out_, first_ ? "\n" : ",\n");
    first_ = false;
    put(out_, "{\"name\":");
    append_string(out_, name);
    put(out_, ",\"cat\":");
    append_string(out_, category);
    fmt::format_to(std::back_inserter(out_), ",\"ph\":\"{}\",\"pid\":{},\"tid\":{}", phase, pid,
                   tid);
    return out_;
  }

  void metadata(std::string_view kind, int pid, std::uint64_t tid, std::string_view name,
                std::uint64_t sort_index) {
    put(begin(kind, "__metadata", 'M', pid, tid), ",\"args\":{\"name\":");
    append_string(out_, name);
    put(out_, "}}");
    const std::string_view sort_kind =
        kind == "process_name" ? "process_sort_index" : "thread_sort_index";
    begin(sort_kind, "__metadata", 'M', pid, tid);
    fmt::format_to(std::back_inserter(out_), ",\"args\":{{\"sort_index\":{}}}}}", sort_index);
  }

  /// A complete event; `args` is the inside of the args object (may be empty).
  void slice(std::string_view name, std::string_view category, int pid, std::uint64_t tid,
             std::uint64_t start, std::uint64_t end, const std::string& args) {
    begin(name, category, 'X', pid, tid);
    fmt::format_to(std::back_inserter(out_), ",\"ts\":{},\"dur\":{},\"args\":{{{}}}}}", ts(start),
                   dur(end - start), args);
  }

  /// A flow arrow from a host call to the GPU work it enqueued.
  void flow(std::uint64_t id, std::uint32_t thread, std::uint64_t from, std::uint32_t device,
            std::uint32_t stream, std::uint64_t to) {
    begin("launch", "launch", 's', kHostPid, thread);
    fmt::format_to(std::back_inserter(out_), ",\"id\":{},\"ts\":{}}}", id, ts(from));
    begin("launch", "launch", 'f', gpu_pid(device), work_tid(stream));
    fmt::format_to(std::back_inserter(out_), ",\"id\":{},\"ts\":{},\"bp\":\"e\"}}", id, ts(to));
  }

  std::string finish(const Trace& trace) {
    Buffer head;
    fmt::format_to(std::back_inserter(head),
                   "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"generator\":\"kerntime\","
                   "\"origin_cupti_ns\":{},\"dropped_records\":{},\"zero_timestamp_records\":{},"
                   "\"inverted_timestamp_records\":{},\"unattributed_kernels\":{}}},"
                   "\"traceEvents\":[",
                   origin_, trace.dropped_records, trace.zero_timestamp_records,
                   trace.inverted_timestamp_records, trace.unattributed_kernels);
    return fmt::to_string(head) + fmt::to_string(out_) + "\n]}\n";
  }

 private:
  const std::uint64_t origin_;
  Buffer out_;
  bool first_ = true;
};

std::uint64_t first_timestamp(const Trace& trace) {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
  auto take = [&first](const auto& records) {
    if (!records.empty()) first = std::min(first, records.front().start_ns);  // sorted by start
  };
  take(trace.kernels);
  take(trace.memcpys);
  take(trace.memsets);
  take(trace.api_calls);
  return first == std::numeric_limits<std::uint64_t>::max() ? 0 : first;
}

template <class Activity>
std::string launch_args(const Activity& a) {
  std::string args = fmt::format("\"correlation\":{}", a.correlation_id);
  if (a.graph_id != 0)
    args += fmt::format(",\"graph\":{},\"graph node\":{}", a.graph_id, a.graph_node_id);
  if (!a.scope_name.empty()) {
    Buffer scope;
    append_string(scope, a.scope_name);
    args += ",\"scope\":" + fmt::to_string(scope);
  }
  return args;
}

struct Span {
  std::uint64_t start = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t end = 0;
  std::size_t kernels = 0;
};

}  // namespace

std::string to_chrome_trace(const Trace& trace) {
  Writer w{first_timestamp(trace)};

  // Scope spans per opening and stream, for the scope and every scope around it, so nested
  // scopes draw nested.
  std::map<std::tuple<std::uint64_t, std::uint32_t, std::uint32_t>, Span> spans;
  for (const KernelActivity& k : trace.kernels) {
    const TraceScope* scope = trace.find_scope(k.scope_id);
    for (std::size_t depth = 0; scope != nullptr && depth <= trace.scopes.size(); ++depth) {
      Span& span = spans[{scope->id, k.device, k.stream}];
      span.start = std::min(span.start, k.start_ns);
      span.end = std::max(span.end, k.end_ns);
      ++span.kernels;
      scope = trace.find_scope(scope->parent_id);
    }
  }
  std::set<std::pair<std::uint32_t, std::uint32_t>> scoped_streams;
  for (const auto& entry : spans) {
    scoped_streams.emplace(std::get<1>(entry.first), std::get<2>(entry.first));
  }
  // Tracks: the host's threads, then every (device, stream) that ran something.
  std::set<std::uint32_t> threads;
  for (const ApiCall& call : trace.api_calls)
    threads.insert(call.thread_id);
  std::set<std::pair<std::uint32_t, std::uint32_t>> streams;
  for (const KernelActivity& k : trace.kernels)
    streams.emplace(k.device, k.stream);
  for (const MemcpyActivity& m : trace.memcpys)
    streams.emplace(m.device, m.stream);
  for (const MemsetActivity& m : trace.memsets)
    streams.emplace(m.device, m.stream);
  if (!threads.empty()) {
    const std::uint32_t process = trace.api_calls.front().process_id;
    w.metadata("process_name", kHostPid, 0, fmt::format("Host (process {})", process), 0);
    for (const std::uint32_t thread : threads) {
      w.metadata("thread_name", kHostPid, thread, fmt::format("Thread {}", thread), thread);
    }
  }
  std::set<std::uint32_t> devices;
  for (const auto& [device, stream] : streams) {
    if (devices.insert(device).second) {
      w.metadata("process_name", gpu_pid(device), 0, fmt::format("GPU {}", device),
                 gpu_pid(device));
    }
    w.metadata("thread_name", gpu_pid(device), work_tid(stream), fmt::format("Stream {}", stream),
               work_tid(stream));
    if (scoped_streams.count({device, stream}) != 0) {
      w.metadata("thread_name", gpu_pid(device), scope_tid(stream),
                 fmt::format("Stream {} scopes", stream), scope_tid(stream));
    }
  }

  for (const ApiCall& call : trace.api_calls) {
    std::string args = fmt::format("\"correlation\":{}", call.correlation_id);
    if (call.return_value != 0) args += fmt::format(",\"return\":{}", call.return_value);
    w.slice(call.name, call.kind == ApiKind::driver ? "cuda_driver" : "cuda_runtime", kHostPid,
            call.thread_id, call.start_ns, call.end_ns, args);
  }
  for (const KernelActivity& k : trace.kernels) {
    w.slice(k.name, "kernel", gpu_pid(k.device), work_tid(k.stream), k.start_ns, k.end_ns,
            launch_args(k) + fmt::format(",\"grid\":\"{}\",\"block\":\"{}\",\"registers\":{},"
                                         "\"static smem\":{},\"dynamic smem\":{}",
                                         format::dimensions(k.grid), format::dimensions(k.block),
                                         k.registers_per_thread, k.static_shared_memory_bytes,
                                         k.dynamic_shared_memory_bytes));
  }
  for (const MemcpyActivity& m : trace.memcpys) {
    w.slice(fmt::format("Memcpy {}", to_string(m.kind)), "memcpy", gpu_pid(m.device),
            work_tid(m.stream), m.start_ns, m.end_ns,
            launch_args(m) +
                fmt::format(",\"bytes\":{},\"GB/s\":{:.3f}", m.bytes, m.bandwidth_gb_per_s()));
  }
  for (const MemsetActivity& m : trace.memsets) {
    w.slice("Memset", "memset", gpu_pid(m.device), work_tid(m.stream), m.start_ns, m.end_ns,
            launch_args(m) + fmt::format(",\"bytes\":{}", m.bytes));
  }

  for (const auto& [key, span] : spans) {
    const auto& [id, device, stream] = key;
    w.slice(trace.find_scope(id)->name, "scope", gpu_pid(device), scope_tid(stream), span.start,
            span.end, fmt::format("\"scope id\":{},\"kernels\":{}", id, span.kernels));
  }

  std::uint64_t flow = 0;
  auto arrow = [&](const auto& activity) {
    if (activity.launch) {
      w.flow(++flow, activity.launch->thread_id, activity.launch->start_ns, activity.device,
             activity.stream, activity.start_ns);
    }
  };
  for (const KernelActivity& k : trace.kernels)
    arrow(k);
  for (const MemcpyActivity& m : trace.memcpys)
    arrow(m);
  for (const MemsetActivity& m : trace.memsets)
    arrow(m);
  return w.finish(trace);
}

void write_chrome_trace(const Trace& trace, const std::string& path) {
  io::write_file_atomically(path, to_chrome_trace(trace));
}

}  // namespace kerntime
