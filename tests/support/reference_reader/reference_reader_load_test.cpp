// SPDX-License-Identifier: Apache-2.0
// The reference reader as CUDA loads it, without a GPU: it loads, exports the injection entry
// point and nothing of its own, and without a usable output prefix says so and records nothing.
#include <cstdlib>
#include <dlfcn.h>
#include <string>

#include <gtest/gtest.h>

namespace {

void* open_reader() {
  void* library = dlopen(KERNTIME_REFERENCE_READER, RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(library, nullptr) << dlerror();
  return library;
}

TEST(ReferenceReaderLoad, ExportsTheInjectionEntryPointOnly) {
  void* library = open_reader();
  ASSERT_NE(library, nullptr);
  EXPECT_NE(dlsym(library, "InitializeInjection"), nullptr);
  // Its line code stays inside: a program with its own symbols of that name is not disturbed.
  EXPECT_EQ(dlsym(library, "_ZN16reference_reader8demangleB5cxx11EPKc"), nullptr);
}

TEST(ReferenceReaderLoad, WithoutAnOutputPrefixItSaysSoAndStartsNothing) {
  void* library = open_reader();
  ASSERT_NE(library, nullptr);
  const auto initialize = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
  ASSERT_NE(initialize, nullptr);
  unsetenv("KERNTIME_REFERENCE_OUT");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(initialize(), 1);  // CUDA goes on either way
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("set KERNTIME_REFERENCE_OUT to the output prefix; recording nothing"),
            std::string::npos)
      << err;
}

// Before any CUPTI call, so it runs the same with or without a GPU.
TEST(ReferenceReaderLoad, AnOutputItCannotOpenIsSaidAndNothingStarts) {
  void* library = open_reader();
  ASSERT_NE(library, nullptr);
  const auto initialize = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
  ASSERT_NE(initialize, nullptr);
  setenv("KERNTIME_REFERENCE_OUT", "/nonexistent-directory/ref", 1);
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(initialize(), 1);
  const std::string err = ::testing::internal::GetCapturedStderr();
  unsetenv("KERNTIME_REFERENCE_OUT");
  EXPECT_NE(err.find("reference reader: cannot open /nonexistent-directory/ref."),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("(recording nothing): No such file or directory"), std::string::npos) << err;
}

}  // namespace
