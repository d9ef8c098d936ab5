// SPDX-License-Identifier: Apache-2.0
// Who takes CUPTI's activity records when kerntime gets none. CUPTI names the holder of its one
// subscriber slot but not the client its activity buffers go to (cuptiActivityRegisterCallbacks
// is process-wide, and the last caller wins), so kerntime names the likely ones from what the
// process shows: the tool CUDA_INJECTION64_PATH loads, and profilers among its loaded libraries.
#pragma once

#include <string>
#include <vector>

namespace kerntime::cupti {

/// The other client, in words, from the facts: `injection` is CUDA_INJECTION64_PATH ("" when
/// unset), `injection_is_kerntime` says whether it is kerntime's own library (the one this code
/// runs in), and `modules` are the paths of the loaded shared libraries.
std::string describe_other_cupti_client(const std::string& injection, bool injection_is_kerntime,
                                        const std::vector<std::string>& modules);

/// The same from this process: its environment and its loaded libraries (dl_iterate_phdr).
std::string describe_other_cupti_client();

/// Whether CUDA_INJECTION64_PATH names another tool than the library this code runs in.
bool other_tool_injected();

/// The client that made a cuptiSubscribe call, named from the path of the library the call came
/// from: "PyTorch's profiler (torch.profiler, Kineto)" for PyTorch's libraries, and so on; "a
/// CUPTI client in LIBRARY" for one it does not know, "a CUPTI client" without a path.
std::string describe_cupti_caller(const std::string& library_path);

}  // namespace kerntime::cupti
