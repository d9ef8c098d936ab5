// SPDX-License-Identifier: Apache-2.0
// The words a user reads when another tool holds CUPTI: the tool by the name the user knows,
// never CUPTI's "<not provided>", and what to do.
#include "cupti/cupti_holder.hpp"

#include <string>

#include <gtest/gtest.h>

namespace kerntime::cupti {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CuptiHolder, CuptisPrefixGoesAndANamedHolderIsKept) {
  EXPECT_EQ(holder_in_words("CUPTI for Nsight Systems", ""), "Nsight Systems");
  EXPECT_EQ(holder_in_words("CUPTI for my_profiler", "/opt/x/libnsys.so"), "my_profiler");
  EXPECT_EQ(holder_in_words("kineto", ""), "kineto");
}

TEST(CuptiHolder, AnUnnamedHolderIsTheToolTheInjectionVariableNames) {
  EXPECT_EQ(holder_in_words("CUPTI for <not provided>",
                            "/usr/local/cuda/compute-sanitizer/libsanitizer-collection.so"),
            "compute-sanitizer");
  EXPECT_EQ(holder_in_words("",
                            "/opt/nvidia/nsight-systems/2025.1/target-linux-x64/"
                            "libToolsInjection64.so"),
            "Nsight Systems");
  EXPECT_EQ(holder_in_words("<not provided>",
                            "/opt/nvidia/nsight-compute/2025.1/target/"
                            "linux-desktop-glibc_2_11_3-x64/"
                            "libInterceptorInjectionTarget.so"),
            "Nsight Compute");
  EXPECT_EQ(holder_in_words("CUPTI for <not provided>", ""), "");
  EXPECT_EQ(holder_in_words("CUPTI for <not provided>", "/opt/other/libtool.so"), "");
  EXPECT_EQ(holder_in_words("CUPTI for <unknown>", ""), "");
}

TEST(CuptiHolder, TheReasonSaysWhoWhatItMeansAndWhatToDo) {
  const std::string sanitizer = held_reason(
      "CUPTI for <not provided>", "/usr/local/cuda/compute-sanitizer/libsanitizer-collection.so");
  EXPECT_EQ(sanitizer.rfind("CUPTI is held by compute-sanitizer (a process has one CUPTI "
                            "subscriber at a time): kernel tracing is off and GPU times come "
                            "from cudaEvents",
                            0),
            0u)
      << sanitizer;
  EXPECT_FALSE(contains(sanitizer, "<not provided>"));
  EXPECT_TRUE(contains(sanitizer, "time the program without it")) << sanitizer;

  const std::string nobody = held_reason("CUPTI for <not provided>", "");
  EXPECT_TRUE(contains(nobody,
                       "held by another tool (Nsight Systems, Nsight Compute, "
                       "compute-sanitizer, cuda-gdb or another profiler)"))
      << nobody;
  EXPECT_TRUE(contains(nobody, "run the program without that tool")) << nobody;
  EXPECT_TRUE(contains(held_reason("CUPTI for Nsight Compute", ""), "replays kernels"));
  // One line: it goes into warnings, tables and one-line errors.
  EXPECT_FALSE(contains(nobody, "\n"));
}

TEST(CuptiHolder, TheStarvedReasonCountsNamesAndAdvises) {
  const std::string reason = starved_reason(1, "the tool CUDA_INJECTION64_PATH loads, /x.so");
  EXPECT_TRUE(contains(reason, "CUPTI saw 1 kernel launch but delivered no kernel record"))
      << reason;
  EXPECT_TRUE(contains(reason,
                       "another CUPTI client in this process receives the activity "
                       "records (the tool CUDA_INJECTION64_PATH loads, /x.so)"))
      << reason;
  EXPECT_TRUE(contains(reason, "stop its tracing before the Tracer starts")) << reason;
  EXPECT_TRUE(contains(starved_reason(3, "x"), "3 kernel launches"));
}

}  // namespace
}  // namespace kerntime::cupti
