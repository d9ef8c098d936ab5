// SPDX-License-Identifier: Apache-2.0
// The kerntime command starts without any CUDA library, so that a CPU-only CI job can compare
// and merge reports: it links the static CUDA runtime, which loads libcuda only when a command
// first uses CUDA. The ELF check is the guard (this machine may have CUDA libraries on its
// default path, so hiding them is not possible); the run checks that compare loads none.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

const std::string cli = KERNTIME_CLI;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class T>
T read_at(const std::vector<char>& bytes, std::uint64_t offset) {
  T value{};
  if (offset + sizeof(T) > bytes.size()) throw std::runtime_error("truncated ELF file");
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// The DT_NEEDED entries of a 64-bit ELF file: its dynamic section's NEEDED offsets into the
// string table that the section links.
std::vector<std::string> needed_libraries(const std::string& path) {
  const std::vector<char> bytes = read_bytes(path);
  const auto header = read_at<Elf64_Ehdr>(bytes, 0);
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64) {
    throw std::runtime_error(path + " is not a 64-bit ELF file");
  }
  std::vector<std::string> needed;
  for (std::uint16_t i = 0; i < header.e_shnum; ++i) {
    const auto section =
        read_at<Elf64_Shdr>(bytes, header.e_shoff + std::uint64_t{i} * header.e_shentsize);
    if (section.sh_type != SHT_DYNAMIC) continue;
    const auto strings = read_at<Elf64_Shdr>(
        bytes, header.e_shoff + std::uint64_t{section.sh_link} * header.e_shentsize);
    for (std::uint64_t at = section.sh_offset;
         at + sizeof(Elf64_Dyn) <= section.sh_offset + section.sh_size; at += sizeof(Elf64_Dyn)) {
      const auto entry = read_at<Elf64_Dyn>(bytes, at);
      if (entry.d_tag == DT_NULL) break;
      if (entry.d_tag != DT_NEEDED) continue;
      const std::uint64_t name = strings.sh_offset + entry.d_un.d_val;
      if (name >= bytes.size()) throw std::runtime_error("bad DT_NEEDED offset");
      needed.emplace_back(bytes.data() + name);
    }
  }
  return needed;
}

TEST(CliWithoutCuda, TheCommandNeedsNoCudaLibrary) {
  const std::vector<std::string> needed = needed_libraries(cli);
  ASSERT_FALSE(needed.empty()) << "no dynamic section found in " << cli;
  bool has_libc = false;
  for (const std::string& library : needed) {
    has_libc = has_libc || library.rfind("libc.so", 0) == 0;
    for (const char* cuda : {"libcudart", "libcuda.", "libcupti", "libnvToolsExt", "libkerntime"}) {
      EXPECT_FALSE(contains(library, cuda))
          << cli << " needs " << library << ": a CPU-only machine cannot start it";
    }
  }
  EXPECT_TRUE(has_libc);  // the parse found the real list
}

TEST(CliWithoutCuda, CompareLoadsNoCudaLibrary) {
  const std::string dir = ::testing::TempDir();
  const std::string a = dir + "no_cuda_a.json";
  const std::string b = dir + "no_cuda_b.json";
  for (const std::string& path : {a, b}) {
    std::ofstream out{path};
    out << R"({"schema": "kerntime-report/1", "entries": [{"name": "k", "samples": )"
        << R"([100, 101, 102, 100, 101, 102, 100, 101, 102, 100, 101, 102]}]})";
  }
  // LD_DEBUG=libs has the dynamic loader name every library it loads, dlopen'ed ones included.
  const auto r = run_command("LD_DEBUG=libs LD_LIBRARY_PATH= " + cli + " compare " + a + " " + b);
  EXPECT_EQ(r.exit_status, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "k")) << r.out;
  for (const char* cuda : {"libcudart", "libcuda.so", "libcupti"}) {
    EXPECT_FALSE(contains(r.err, cuda)) << "compare loaded " << cuda << ":\n" << r.err;
  }
}

}  // namespace
}  // namespace kerntime
