// SPDX-License-Identifier: Apache-2.0
#include "trace/names.hpp"

#include <string>

#include <gtest/gtest.h>

namespace kerntime::trace {
namespace {

TEST(Demangle, ReadsCxxNamesAndRejectsTheRest) {
  EXPECT_EQ(demangle("_Z6kernelPfi"), std::optional<std::string>{"kernel(float*, int)"});
  EXPECT_EQ(demangle("_Z5saxpyIfEviT_PKS0_PS0_"),
            std::optional<std::string>{"void saxpy<float>(int, float, float const*, float*)"});
  EXPECT_FALSE(demangle("plain_c_kernel").has_value());
  EXPECT_FALSE(demangle("_Zbroken!").has_value());
  EXPECT_FALSE(demangle("").has_value());
  EXPECT_FALSE(demangle("_Z" + std::string(9000, 'x')).has_value());
}

TEST(StripVersionSuffix, RemovesOnlyATrailingVersion) {
  EXPECT_EQ(strip_version_suffix("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(strip_version_suffix("cudaGraphLaunch_v10000"), "cudaGraphLaunch");
  EXPECT_EQ(strip_version_suffix("cuLaunchKernel"), "cuLaunchKernel");
  EXPECT_EQ(strip_version_suffix("cudaMemcpyAsync_ptsz_v7000"), "cudaMemcpyAsync_ptsz");
  EXPECT_EQ(strip_version_suffix("cuMemcpy_v2"), "cuMemcpy");
  EXPECT_EQ(strip_version_suffix("name_v"), "name_v");
  EXPECT_EQ(strip_version_suffix("name_vx1"), "name_vx1");
}

TEST(KernelNames, CachesByPointerButChecksTheText) {
  StringStore store;
  KernelNames names{store};
  char buffer[32] = "_Z6kernelPfi";
  const std::uint32_t first = names.intern(buffer);
  EXPECT_EQ(names.intern(buffer), first);
  EXPECT_EQ(names.demangled(first), "kernel(float*, int)");
  EXPECT_EQ(names.mangled(first), "_Z6kernelPfi");

  // The same address now holds another kernel's name (its module was unloaded and reused).
  std::snprintf(buffer, sizeof(buffer), "%s", "other_kernel");
  const std::uint32_t second = names.intern(buffer);
  EXPECT_NE(second, first);
  EXPECT_EQ(names.demangled(second), "other_kernel");
  EXPECT_EQ(names.demangled(first), "kernel(float*, int)");

  // Same text at another address: the same entry.
  const std::string copy = "_Z6kernelPfi";
  EXPECT_EQ(names.intern(copy.c_str()), first);
  EXPECT_EQ(names.demangle_failures(), 0u);
  names.intern("_Zbroken!");
  EXPECT_EQ(names.demangle_failures(), 1u);
}

// PyTorch's kernel names run to thousands of characters: once the caller knows when modules are
// unloaded, a pointer seen before is not read again, until the next unload.
TEST(KernelNames, TrustedPointersAreNotReadAgainUntilAnUnload) {
  StringStore store;
  KernelNames names{store};
  char buffer[32] = "_Z6kernelPfi";
  const std::uint32_t before_trust = names.intern(buffer);
  names.trust_pointers(0);
  std::snprintf(buffer, sizeof(buffer), "%s", "other_kernel");
  // Pointers cached before the trust are read once more.
  const std::uint32_t other = names.intern(buffer);
  EXPECT_NE(other, before_trust);
  EXPECT_EQ(names.demangled(other), "other_kernel");

  // The text changes behind the pointer, and no unload was counted: not read, the same kernel.
  std::snprintf(buffer, sizeof(buffer), "%s", "third_kernel");
  names.trust_pointers(0);
  EXPECT_EQ(names.intern(buffer), other);

  // An unload: the pointer is read again.
  names.trust_pointers(1);
  const std::uint32_t third = names.intern(buffer);
  EXPECT_NE(third, other);
  EXPECT_EQ(names.demangled(third), "third_kernel");
  // Same text at another address: still one entry.
  const std::string copy = "other_kernel";
  EXPECT_EQ(names.intern(copy.c_str()), other);
}

}  // namespace
}  // namespace kerntime::trace
