// SPDX-License-Identifier: Apache-2.0
// The report reader's memory follows what the model keeps, not a DOM of the whole file
// (docs/hardening.md, "Bounded input", has the figures). `kerntime compare A A` of a report
// whose trace section holds 16 MiB of kernel records needs about 9x the file's size of data
// memory (RLIMIT_DATA) when the reader builds a DOM of the whole file, about 3.4x when it
// reads while parsing (the text and the models). The command runs under a limit of 5.5x the
// file: the reader fits with a margin of 1.6x, and a reader that builds the whole DOM again
// runs out of memory (bad_alloc) and fails this test by as much. Not built with sanitizers,
// whose allocators change the footprint.
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

const std::string cli = KERNTIME_CLI;

// One record as kerntime writes it: every field a CUPTI kernel record has.
std::string kernel_record(std::size_t i) {
  const std::string start = std::to_string(1000 * i);
  return R"json({"name": "void gemm<128>(const float*, const float*, float*)", )json"
         R"("mangled_name": "_Z4gemmILi128EEvPKfS1_Pf", "device": 0, "stream": 13, )"
         R"("grid": [64, 2, 1], "block": [128, 1, 1], "registers_per_thread": 40, )"
         R"("static_shared_memory_bytes": 8192, "dynamic_shared_memory_bytes": 1024, )"
         R"("start_ns": )" +
         start +
         R"(, "duration_ns": 100500, "launch": {"api": "runtime", "name": )"
         R"("cudaLaunchKernel", "thread_id": 7, "start_ns": )" +
         start + R"(, "end_ns": )" + start + R"(}, "scope": "gemm"})";
}

// A report of one entry and a trace section of `target_bytes` of kernel records.
std::size_t write_trace_report(const std::string& path, std::size_t target_bytes) {
  std::ofstream out{path};
  out << R"({"schema": "kerntime-report/1", "entries": [{"name": "gemm", "samples": [1.5]}],)"
      << "\n"
      << R"("trace": {"counts": {"kernels": 1}, "origin_ns": 5000, "kernels": [)"
      << "\n";
  std::size_t written = 0;
  for (std::size_t i = 0; written < target_bytes; ++i) {
    const std::string record = (i == 0 ? "" : ",\n") + kernel_record(i);
    out << record;
    written += record.size();
  }
  out << "]}}\n";
  out.close();
  return written;
}

TEST(CliMemory, CompareReadsALargeTraceWithinFiveAndAHalfTimesTheFileSize) {
  const std::string path = ::testing::TempDir() + "kerntime_memory_trace.json";
  const std::size_t bytes = write_trace_report(path, std::size_t{16} << 20);
  const std::size_t limit_kib = 11 * bytes / 2 / 1024;
  const auto result = run_command("ulimit -d " + std::to_string(limit_kib) + " && '" + cli +
                                  "' compare '" + path + "' '" + path + "'");
  std::remove(path.c_str());
  EXPECT_EQ(result.exit_status, 0)
      << "kerntime compare of a " << bytes / 1024 << " KiB trace report within " << limit_kib
      << " KiB of data: " << result.err;
  EXPECT_NE(result.out.find("gemm"), std::string::npos) << result.out;
}

// Standard input without end, under a memory limit below the 1 GiB input limit: the reader
// runs out of memory first. That was "unexpected failure: std::bad_alloc", naming nothing.
TEST(CliMemory, RunningOutOfMemoryOnStandardInputNamesIt) {
  const auto result = run_command("ulimit -d 98304 && '" + cli + "' report - </dev/zero");
  EXPECT_EQ(result.exit_status, 2);
  EXPECT_EQ(
      result.err.rfind("kerntime: <stdin>: not enough memory to read report (ran out after ", 0),
      0u)
      << result.err;
  EXPECT_NE(result.err.find("); free memory or raise the memory limit (ulimit -v, ulimit -d), "
                            "or check that it is the right input\n"),
            std::string::npos)
      << result.err;
}

// A file that fits but whose model does not (400,000 one-sample entries: 15 MiB of text, more
// than 130 MiB of entries) names the file, not only std::bad_alloc.
TEST(CliMemory, RunningOutOfMemoryWhileParsingNamesTheFile) {
  const std::string path =
      ::testing::TempDir() + "kerntime_memory_entries_" + std::to_string(::getpid()) + ".json";
  {
    std::ofstream out{path};
    out << R"({"schema": "kerntime-report/1", "entries": [)";
    for (int i = 0; i < 400'000; ++i)
      out << (i == 0 ? "" : ",") << R"({"name":"e)" << i << R"(","samples":[812.5]})";
    out << "]}";
  }
  const auto result =
      run_command("ulimit -d 98304 && '" + cli + "' report '" + path + "' --format csv");
  std::remove(path.c_str());
  EXPECT_EQ(result.exit_status, 2);
  EXPECT_EQ(result.err, "kerntime: " + path +
                            ": not enough memory to read report (ran out while parsing its 14 "
                            "MiB); free memory or raise the memory limit (ulimit -v, ulimit -d), "
                            "or check that it is the right input\n");
}

}  // namespace
}  // namespace kerntime
