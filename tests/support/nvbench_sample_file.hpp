// SPDX-License-Identifier: Apache-2.0
// An NVBench `--jsonbin` sample file, as NVBench writes one: little-endian float32 seconds.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kerntime::testing {

/// Writes `seconds` to `path` (its folders made), each as a little-endian float32. Throws
/// std::runtime_error when the file cannot be written.
inline void write_nvbench_samples(const std::filesystem::path& path,
                                  const std::vector<float>& seconds) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  for (const float value : seconds) {
    std::uint32_t word = 0;
    std::memcpy(&word, &value, sizeof word);
    for (int shift = 0; shift < 32; shift += 8)
      out.put(static_cast<char>(word >> shift & 0xff));
  }
  if (!out) throw std::runtime_error("cannot write NVBench samples to " + path.string());
}

}  // namespace kerntime::testing
