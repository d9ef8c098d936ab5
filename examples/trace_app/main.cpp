// SPDX-License-Identifier: Apache-2.0
// trace_app: a small GPU program in phases, traced with kerntime::Tracer. Every kernel and copy
// it runs is recorded by CUPTI with its own GPU start and end, including the kernels cuBLAS
// launches on its own, and attributed to the kerntime::ScopedTimer scope it was launched in.
//
//   trace_app [trace.json] [report.json]
//
// Prints the per-scope table (CUPTI's GPU time beside the scope's cudaEvent time), the
// per-kernel table and the other summaries of `nsys stats` (copies and memsets by time and by
// size, API calls, kernel launch and queue times), writes a Chrome/Perfetto timeline to
// trace.json (open it in ui.perfetto.dev), and, when a second path is given, a
// kerntime-report/1 file with the trace section. See docs/tracing.md.
//
// The pattern to copy:
//   1. Start the Tracer first, before CUDA creates a context or loads a module: enabling CUPTI
//      later costs milliseconds and slows the first launch of every kernel already loaded.
//   2. Warm up, then tracer.clear(), so module loading and first-touch costs stay out.
//   3. Name the phases with ScopedTimer; every launch inside, by any library, is attributed.
//   4. tracer.flush() (it synchronizes first), then tracer.trace().
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include <kerntime/kerntime.hpp>

#include "cuda_resources.hpp"
#include "kernels/samples.hpp"

namespace {

namespace samples = kerntime::samples;
using trace_examples::check;

// Vectors larger than the 60 MB L2 of an H200, so copies and memory-bound kernels touch DRAM.
constexpr std::size_t kFloats = std::size_t{16} << 20;  // 64 MiB per vector
constexpr int kGemm = 1024;                             // 1024^3 SGEMM: ours and cuBLAS's
constexpr std::size_t kSide = 2048;                     // 2048 x 2048 transpose
constexpr int kSteps = 5;

struct Buffers {
  trace_examples::PinnedFloats host{kFloats};
  trace_examples::DeviceFloats x{kFloats};
  trace_examples::DeviceFloats y{kFloats};
  trace_examples::DeviceFloats z{kFloats};
  trace_examples::DeviceFloats a{std::size_t{kGemm} * kGemm};
  trace_examples::DeviceFloats b{std::size_t{kGemm} * kGemm};
  trace_examples::DeviceFloats c{std::size_t{kGemm} * kGemm};
  trace_examples::DeviceFloats sum{1};
};

// A named phase, timed only when there is a session: the warm-up opens no scope, so the
// per-scope table counts the timed steps alone (the tracer remembers every scope it saw open).
class Phase {
 public:
  Phase(kerntime::Session* session, const char* name, cudaStream_t stream) {
    if (session != nullptr) timer_.emplace(*session, name, stream);
  }

 private:
  std::optional<kerntime::ScopedTimer> timer_;
};

// One step of the program: each phase in its own scope, all inside "step".
void step(kerntime::Session* session, const Buffers& m, const trace_examples::Cublas& cublas,
          cudaStream_t s) {
  const Phase whole{session, "step", s};
  {
    const Phase t{session, "upload", s};
    check(cudaMemcpyAsync(m.x.get(), m.host.get(), m.x.bytes(), cudaMemcpyHostToDevice, s),
          "cudaMemcpyAsync");
    check(cudaMemsetAsync(m.y.get(), 0, m.y.bytes(), s), "cudaMemsetAsync");
  }
  {
    const Phase t{session, "elementwise", s};
    samples::launch_saxpy(kFloats, 2.0f, m.x.get(), m.y.get(), s);
    samples::launch_vector_add(kFloats, m.x.get(), m.y.get(), m.z.get(), s);
  }
  {
    const Phase t{session, "sgemm (kerntime sample)", s};
    samples::launch_sgemm_tiled(kGemm, kGemm, kGemm, 1.0f, m.a.get(), m.b.get(), 0.0f, m.c.get(),
                                s);
  }
  {
    const Phase t{session, "sgemm (cuBLAS)", s};
    cublas.sgemm_row_major(kGemm, kGemm, kGemm, m.a.get(), m.b.get(), m.c.get());
  }
  {
    const Phase t{session, "reduce", s};
    samples::launch_reduce_sum(kFloats, m.z.get(), m.sum.get(), s);  // a memset, then a kernel
  }
  {
    const Phase t{session, "transpose", s};
    samples::launch_transpose_tiled(kSide, kSide, m.x.get(), m.y.get(), s);
  }
  {
    const Phase t{session, "copies", s};
    check(cudaMemcpyAsync(m.y.get(), m.z.get(), m.z.bytes(), cudaMemcpyDeviceToDevice, s),
          "cudaMemcpyAsync");
    samples::launch_device_copy(m.x.get(), m.y.get(), m.y.bytes(), s);
  }
  {
    const Phase t{session, "download", s};
    check(cudaMemcpyAsync(m.host.get(), m.z.get(), m.z.bytes(), cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync");
  }
}

void print_copies(const kerntime::Trace& trace) {
  std::printf("\nCopies and memsets (CUPTI):\n");
  for (const kerntime::MemcpyActivity& copy : trace.memcpys) {
    std::printf("  %-5s %8.1f MiB  %s  %7.1f GB/s  scope %s\n",
                std::string{kerntime::to_string(copy.kind)}.c_str(),
                static_cast<double>(copy.bytes) / (1 << 20),
                kerntime::format_duration(static_cast<double>(copy.duration_ns())).c_str(),
                copy.bandwidth_gb_per_s(), std::string{copy.scope_name}.c_str());
  }
  for (const kerntime::MemsetActivity& set : trace.memsets) {
    std::printf("  memset %7.1f MiB  %s  %7.1f GB/s  scope %s\n",
                static_cast<double>(set.bytes) / (1 << 20),
                kerntime::format_duration(static_cast<double>(set.duration_ns())).c_str(),
                set.bandwidth_gb_per_s(), std::string{set.scope_name}.c_str());
  }
}

int run(kerntime::Tracer& tracer, const std::string& timeline_path,
        const std::string& report_path) {
  kerntime::require_gpu();
  kerntime::Session session;
  const trace_examples::Stream stream;
  const cudaStream_t s = stream.get();
  const Buffers buffers;
  const trace_examples::Cublas cublas{s};
  // Defined inputs for both SGEMMs (the values do not change their speed).
  check(cudaMemsetAsync(buffers.a.get(), 0, buffers.a.bytes(), s), "cudaMemsetAsync");
  check(cudaMemsetAsync(buffers.b.get(), 0, buffers.b.bytes(), s), "cudaMemsetAsync");

  // Warm-up, untimed: loads every kernel's code (cuBLAS's too) and touches every buffer once.
  step(nullptr, buffers, cublas, s);
  tracer.flush();
  tracer.clear();

  for (int i = 0; i < kSteps; ++i)
    step(&session, buffers, cublas, s);
  tracer.flush();
  kerntime::Report report = session.report();

  if (!tracer.active()) {
    std::printf("kernel tracing is unavailable: %s\n\n", tracer.unavailable_reason().c_str());
    std::fputs(kerntime::render(report, kerntime::Format::table).c_str(), stdout);
    return 0;
  }
  const kerntime::Trace trace = tracer.trace();
  std::printf("Per scope (%d steps): CUPTI's GPU time beside the scope's cudaEvent time\n\n",
              kSteps);
  std::fputs(kerntime::render_scope_summary(trace, kerntime::Format::table, &report).c_str(),
             stdout);
  std::printf("\nPer kernel (CUPTI), largest total first\n\n");
  std::fputs(kerntime::render_kernel_summary(trace, kerntime::Format::table).c_str(), stdout);
  // The rest of what `nsys stats` shows, with its report names and columns.
  for (const kerntime::TraceSummaryKind kind :
       {kerntime::TraceSummaryKind::memory_time, kerntime::TraceSummaryKind::memory_size,
        kerntime::TraceSummaryKind::api_calls, kerntime::TraceSummaryKind::kernel_launches}) {
    std::printf("\n ** %s (%s):\n\n", std::string{kerntime::summary_title(kind)}.c_str(),
                std::string{kerntime::to_string(kind)}.c_str());
    std::fputs(kerntime::render_trace_summary(trace, kind, kerntime::Format::table).c_str(),
               stdout);
  }
  print_copies(trace);

  kerntime::write_chrome_trace(trace, timeline_path);
  std::printf("\nwrote %s: open it in https://ui.perfetto.dev\n", timeline_path.c_str());
  if (!report_path.empty()) {
    report.environment = kerntime::current_environment();
    kerntime::attach_trace(report, trace);
    kerntime::write_report_file(report, report_path);
    std::printf("wrote %s (kerntime-report/1 with a trace section)\n", report_path.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string timeline_path = argc > 1 ? argv[1] : "trace.json";
  const std::string report_path = argc > 2 ? argv[2] : "";
  try {
    // First, before anything touches CUDA. Without CUPTI (or with Nsight holding it) the
    // Tracer is unavailable, says why, and the program still times with cudaEvents.
    kerntime::Tracer tracer;
    return run(tracer, timeline_path, report_path);
  } catch (const kerntime::Error& error) {  // no GPU, a failed CUDA call: one line, the cause
    std::fprintf(stderr, "trace_app: %s\n", error.what());
    return kerntime::query_gpu_status().usable() ? 1 : kerntime::kNoGpuExitStatus;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "trace_app: unexpected failure: %s\n", error.what());
  }
  return 1;
}
