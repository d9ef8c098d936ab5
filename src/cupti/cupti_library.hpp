// SPDX-License-Identifier: Apache-2.0
// CUPTI is loaded at run time (dlopen), never linked: a program using kerntime must start on a
// machine or container without libcupti, and then keeps working with cudaEvent timing only.
#pragma once

#include <string>
#include <string_view>

namespace kerntime::cupti {

/// Whether CUPTI can be loaded here, and which one.
struct CuptiProbe {
  bool loaded = false;
  int api_version = 0;  ///< cuptiGetVersion(): CUPTI_API_VERSION of the loaded library
  std::string path;     ///< the file that was loaded
  std::string problem;  ///< why it could not be loaded, in plain words; empty when loaded
};

/// Loads libcupti (once per process) and reports the result. Never throws.
/// Search order: KERNTIME_CUPTI_LIBRARY if set, the CUPTI next to the loaded libcudart (its
/// directory and ../extras/CUPTI/lib64), then the loader's default search (LD_LIBRARY_PATH).
CuptiProbe probe_cupti();

/// The handle of the loaded library for dlsym(), or nullptr when probe_cupti() failed.
void* cupti_handle();

/// Who else may be a CUPTI client of this process, in plain words, or "" when nothing says so:
/// a tool loaded through CUDA_INJECTION64_PATH, or a libcupti mapped into the process that
/// kerntime did not load (a profiler's own copy, or one a library loaded before kerntime did).
/// A client that registered for records without subscribing cannot be seen otherwise, so the
/// engine borrows CUPTI only when this is "" (and CUPTI's subscription is free). Loads nothing.
std::string other_cupti_user();

/// other_cupti_user() on given text: `maps` as /proc/self/maps reads, `injection` the value of
/// CUDA_INJECTION64_PATH, `own_path` the libcupti kerntime loaded ("" if none); for the tests.
std::string other_cupti_user(std::string_view maps, std::string_view injection,
                             const std::string& own_path);

}  // namespace kerntime::cupti
