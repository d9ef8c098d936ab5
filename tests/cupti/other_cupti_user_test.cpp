// SPDX-License-Identifier: Apache-2.0
// Whether another CUPTI client may be in the process, from what the process can see: the
// engine borrows CUPTI for its calibration only when nothing says so.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "cupti/cupti_library.hpp"

namespace kerntime::cupti {
namespace {

const char* kMaps =
    "5581c000-5581d000 r--p 00000000 08:01 1234 /usr/bin/my_bench\n"
    "7f00a000-7f00b000 r-xp 00000000 08:01 99 /usr/local/cuda-13.0/lib64/libcupti.so.2025.3.1\n"
    "7f00c000-7f00d000 rw-p 00000000 00:00 0 \n"
    "7ffd0000-7ffd1000 rw-p 00000000 00:00 0 [stack]\n";

TEST(OtherCuptiUser, NothingSaysSoWithoutCuptiOrWithOnlyKerntimesOwn) {
  EXPECT_EQ(other_cupti_user("7ffd0000-7ffd1000 rw-p 00000000 00:00 0 [stack]\n", "", ""), "");
  EXPECT_EQ(other_cupti_user(kMaps, "", "/usr/local/cuda-13.0/lib64/libcupti.so.2025.3.1"), "");
}

TEST(OtherCuptiUser, ALibcuptiKerntimeDidNotLoadIsNamed) {
  EXPECT_EQ(other_cupti_user(kMaps, "", ""),
            "a CUPTI library kerntime did not load "
            "(/usr/local/cuda-13.0/lib64/libcupti.so.2025.3.1), as a profiler or a library using "
            "CUPTI loads");
  const std::string nsys = std::string{kMaps} +
                           "7f0e0000-7f0e1000 r-xp 00000000 08:01 7 "
                           "/opt/nsight-systems/target-linux-x64/libcupti.so.13.0\n";
  EXPECT_NE(other_cupti_user(nsys, "", "/usr/local/cuda-13.0/lib64/libcupti.so.2025.3.1")
                .find("/opt/nsight-systems/target-linux-x64/libcupti.so.13.0"),
            std::string::npos);
}

TEST(OtherCuptiUser, AnInjectedToolIsNamedFirst) {
  EXPECT_EQ(other_cupti_user("", "/opt/tool/libinject.so", ""),
            "the tool CUDA_INJECTION64_PATH loads (/opt/tool/libinject.so)");
}

TEST(OtherCuptiUser, ThisProcessReadsItsOwnMaps) {
  // This test program never loads CUPTI itself; only a tool it runs under would.
  const char* injection = std::getenv("CUDA_INJECTION64_PATH");
  EXPECT_EQ(other_cupti_user().empty(), injection == nullptr || *injection == '\0');
}

}  // namespace
}  // namespace kerntime::cupti
