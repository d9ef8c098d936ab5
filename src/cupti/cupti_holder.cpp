// SPDX-License-Identifier: Apache-2.0
#include "cupti/cupti_holder.hpp"

#include <cstdint>

namespace kerntime::cupti {
namespace {

constexpr std::string_view kPrefix = "CUPTI for ";

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// The tools whose injection library names them (their install folders and file names).
std::string tool_of_injection(std::string_view path) {
  if (contains(path, "nsight-systems") || contains(path, "nsys") ||
      contains(path, "ToolsInjection")) {
    return "Nsight Systems";
  }
  if (contains(path, "nsight-compute") || contains(path, "ncu") ||
      contains(path, "InterceptorInjection")) {
    return "Nsight Compute";
  }
  if (contains(path, "sanitizer")) return "compute-sanitizer";
  return {};
}

// What to do, for the tools a user meets most.
std::string advice(const std::string& tool) {
  if (tool == "Nsight Systems") {
    return "run the program without Nsight Systems for kerntime's kernel times, or read them "
           "from Nsight Systems itself (nsys stats --report cuda_gpu_kern_sum)";
  }
  if (tool == "Nsight Compute") {
    return "run the program without Nsight Compute for kerntime's kernel times (Nsight Compute "
           "replays kernels, so no timing under it is the program's own)";
  }
  if (tool == "compute-sanitizer") {
    return "compute-sanitizer checks memory and slows every kernel, so time the program without "
           "it";
  }
  return "run the program without that tool (a profiler, debugger or sanitizer) for kerntime's "
         "kernel times";
}

}  // namespace

std::string holder_in_words(const std::string& holder, std::string_view injection) {
  std::string name = holder;
  if (name.compare(0, kPrefix.size(), kPrefix) == 0) name = name.substr(kPrefix.size());
  // "<not provided>" (compute-sanitizer) and any other placeholder in angle brackets name
  // nobody; they read like a template, not an answer.
  if (name.empty() || name.front() == '<') return tool_of_injection(injection);
  return name;
}

std::string held_reason(const std::string& holder, std::string_view injection,
                        std::string_view consequence) {
  const std::string name = holder_in_words(holder, injection);
  const std::string who =
      name.empty() ? "another tool (Nsight Systems, Nsight Compute, compute-sanitizer, cuda-gdb "
                     "or another profiler)"
                   : name;
  return "CUPTI is held by " + who + " (a process has one CUPTI subscriber at a time)" +
         std::string{consequence} + ". To trace with kerntime, " + advice(name);
}

std::string starved_reason(std::uint64_t launches, const std::string& client,
                           std::string_view consequence) {
  return "CUPTI saw " + std::to_string(launches) + " kernel launch" + (launches == 1 ? "" : "es") +
         " but delivered no kernel record after a forced flush: another CUPTI client in this "
         "process receives the activity records (" +
         client + ")" + std::string{consequence} +
         ". To trace with kerntime, run without that client, or stop its tracing before the "
         "Tracer starts";
}

}  // namespace kerntime::cupti
