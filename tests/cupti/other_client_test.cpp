// SPDX-License-Identifier: Apache-2.0
// Naming the CUPTI client that takes the activity records: the tool injected by
// CUDA_INJECTION64_PATH unless it is kerntime's own library, else profilers among the loaded
// libraries, else the usual suspects.
#include "cupti/other_client.hpp"

#include <gtest/gtest.h>

namespace kerntime::cupti {
namespace {

TEST(OtherCuptiClient, AnotherInjectedToolIsNamedByItsPath) {
  EXPECT_EQ(describe_other_cupti_client("/opt/nsys/libToolsInjection64.so", false, {}),
            "the tool CUDA_INJECTION64_PATH loads, /opt/nsys/libToolsInjection64.so");
}

TEST(OtherCuptiClient, KerntimesOwnInjectionIsNotTheOtherClient) {
  const std::string ours = "/usr/lib/libkerntime_inject.so";
  EXPECT_EQ(describe_other_cupti_client(ours, true, {ours, "/usr/lib/libc.so.6"}),
            "a profiler the program started itself, such as torch.profiler, or a tool that "
            "attached to it");
}

TEST(OtherCuptiClient, ProfilersAmongTheLoadedLibrariesAreNamed) {
  const std::string ours = "/usr/lib/libkerntime_inject.so";
  EXPECT_EQ(
      describe_other_cupti_client(
          ours, true, {"/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so", ours}),
      "likely PyTorch's profiler (torch.profiler, Kineto; PyTorch is loaded)");
  EXPECT_EQ(describe_other_cupti_client(
                "", false, {"/opt/kerntime/lib/libkerntime.so", "/x/libsanitizer-public.so"}),
            "likely a kerntime::Tracer in the program (libkerntime.so is loaded) or "
            "compute-sanitizer (its library is loaded)");
  // "none" is how users switch injection off.
  EXPECT_EQ(describe_other_cupti_client("none", false, {"/lib/libkerntime.so"}),
            "likely a kerntime::Tracer in the program (libkerntime.so is loaded)");
}

TEST(OtherCuptiClient, ThisProcessIsDescribedWithoutFailing) {
  EXPECT_FALSE(describe_other_cupti_client().empty());
}

// A refused cuptiSubscribe is named by the library the call came from.
TEST(CuptiCaller, IsNamedByTheLibraryTheCallCameFrom) {
  EXPECT_EQ(describe_cupti_caller("/venv/lib/python3.12/site-packages/torch/lib/libtorch_cpu.so"),
            "PyTorch's profiler (torch.profiler, Kineto)");
  EXPECT_EQ(describe_cupti_caller("/opt/lib/libkineto.so"),
            "PyTorch's profiler (torch.profiler, Kineto)");
  EXPECT_EQ(describe_cupti_caller("/usr/local/lib/libkerntime.so.0"),
            "a kerntime::Tracer in the program");
  EXPECT_EQ(describe_cupti_caller("/x/jaxlib/xla_extension.so"), "JAX/XLA's profiler");
  EXPECT_EQ(describe_cupti_caller("/opt/app/libtracer.so"), "a CUPTI client in libtracer.so");
  EXPECT_EQ(describe_cupti_caller(""), "a CUPTI client");
}

}  // namespace
}  // namespace kerntime::cupti
