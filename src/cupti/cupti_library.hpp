// SPDX-License-Identifier: Apache-2.0
// CUPTI is loaded at run time (dlopen), never linked: a program using kerntime must start on a
// machine or container without libcupti, and then keeps working with cudaEvent timing only.
#pragma once

#include <string>

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

}  // namespace kerntime::cupti
