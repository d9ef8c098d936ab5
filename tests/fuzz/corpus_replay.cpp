// SPDX-License-Identifier: Apache-2.0
// Replays every file of the fuzz corpus through the fuzzer's oracle without libFuzzer, so that
// any compiler (CI builds with g++) keeps the inputs that once found bugs from finding them again.
// Usage: kerntime_fuzz_corpus_replay DIR_OR_FILE...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "report_oracle.hpp"

namespace {

std::vector<std::filesystem::path> inputs(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (std::filesystem::is_directory(path)) {
      for (const auto& item : std::filesystem::directory_iterator(path)) {
        if (item.is_regular_file()) files.push_back(item.path());
      }
    } else {
      files.push_back(path);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::filesystem::path> files = inputs(argc, argv);
  if (files.empty()) {
    std::fprintf(stderr, "corpus replay: no input files given\n");
    return 2;
  }
  int failures = 0;
  for (const std::filesystem::path& file : files) {
    std::ifstream stream(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(stream)),
                            std::istreambuf_iterator<char>());
    if (!stream.good() && !stream.eof()) {
      std::fprintf(stderr, "%s: cannot read\n", file.c_str());
      ++failures;
      continue;
    }
    try {
      kerntime::fuzz::check_input(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                  bytes.size());
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "%s: %s\n", file.c_str(), failure.what());
      ++failures;
    }
  }
  std::printf("corpus replay: %zu inputs, %d failed\n", files.size(), failures);
  return failures == 0 ? 0 : 1;
}
