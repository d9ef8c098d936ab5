// SPDX-License-Identifier: Apache-2.0
// The reference reader's output line and names, without a GPU.
#include "reference_line.hpp"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace {

using reference_reader::append_line;
using reference_reader::demangle;
using reference_reader::KernelLine;

TEST(ReferenceReaderLine, FieldsInOrderTabSeparatedOneLine) {
  std::string out;
  append_line(out, {1000, 2500, 1, 7, 42, 3}, "k(float*)");
  EXPECT_EQ(out, "1000\t2500\t1\t7\t42\t3\tk(float*)\n");
}

TEST(ReferenceReaderLine, LinesAppendAndFullRangeNumbers) {
  std::string out = "x\n";
  const std::uint64_t big = UINT64_MAX;
  append_line(out, {big, big, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX}, "a");
  append_line(out, {0, 0, 0, 0, 0, 0}, "b c");
  EXPECT_EQ(out,
            "x\n18446744073709551615\t18446744073709551615\t4294967295\t4294967295\t"
            "4294967295\t4294967295\ta\n0\t0\t0\t0\t0\t0\tb c\n");
}

TEST(ReferenceReaderLine, DemanglesCxxNames) {
  EXPECT_EQ(demangle("_Z16run_target_alphaPf"), "run_target_alpha(float*)");
  EXPECT_EQ(demangle("_ZN2at6native6kernelIfEEviPT_"),
            "void at::native::kernel<float>(int, float*)");
}

TEST(ReferenceReaderLine, KeepsNamesThatAreNotMangled) {
  EXPECT_EQ(demangle("triton_poi_fused_add_0"), "triton_poi_fused_add_0");
  EXPECT_EQ(demangle("_Znot_really"), "_Znot_really");
  EXPECT_EQ(demangle(""), "");
  EXPECT_EQ(demangle(nullptr), "<unnamed>");
}

// __cxa_demangle also decodes type encodings ("i" is int): only function symbols (_Z) are names.
TEST(ReferenceReaderLine, ANameThatIsATypeEncodingStaysAsItIs) {
  EXPECT_EQ(demangle("i"), "i");
  EXPECT_EQ(demangle("Pf"), "Pf");
  EXPECT_EQ(demangle("St6vector"), "St6vector");
}

TEST(ReferenceReaderLine, ANameIsAlwaysOneField) {
  EXPECT_EQ(demangle("a\tb\nc\rd"), "a b c d");
  std::string out;
  append_line(out, {1, 2, 0, 0, 0, 0}, demangle("x\ty"));
  EXPECT_EQ(out, "1\t2\t0\t0\t0\t0\tx y\n");
}

}  // namespace
