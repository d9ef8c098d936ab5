// SPDX-License-Identifier: Apache-2.0
#include "report/nvbench_sample_file.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <kerntime/error.hpp>

#include "io/file_reader.hpp"
#include "io/path_in_message.hpp"
#include "report/file_in_folder.hpp"

namespace kerntime::report {

NvbenchSampleFile read_nvbench_sample_file(const ReportReadOptions& options,
                                           const std::string& source,
                                           const NvbenchSampleFileRequest& request) {
  struct Place {
    std::string folder;
    std::string name;
    std::string words;
  };
  std::vector<Place> places = {{options.nvbench_directory, request.name, "the folder of " + source},
                               {".", request.name, "the working directory"}};
  if (!options.nvbench_json_name.empty()) {
    places.push_back({options.nvbench_directory,
                      options.nvbench_json_name + "-bin/" +
                          std::filesystem::path{request.name}.filename().string(),
                      "the folder of " + source});
  }
  NvbenchSampleFile result;
  FileInFolder file;
  const Place* place = &places.front();
  for (const Place& p : places) {
    place = &p;
    file = resolve_inside(p.folder, p.name, p.words);
    if (file.status != FileInFolder::Status::missing) break;
  }
  if (file.status == FileInFolder::Status::missing) return result;
  if (file.status == FileInFolder::Status::refused) {
    result.status = NvbenchSampleFile::Status::refused;
    result.why = file.refusal;
    return result;
  }
  const std::uint64_t count = request.count;
  if (count * 4 > request.bytes_left) {
    result.status = NvbenchSampleFile::Status::refused;
    result.why = "would pass the limit of 1 GiB of sample files read for one NVBench JSON";
    return result;
  }
  // Named as the JSON names it: the resolved path could show where a link leads.
  const std::string shown =
      io::path_in_message((std::filesystem::path{place->folder} / place->name).string());
  std::string bytes;
  try {
    bytes = io::read_file_bounded(file.path.string(), shown, count * 4, "NVBench sample file");
  } catch (const Error& error) {
    result.status = NvbenchSampleFile::Status::changed;
    result.why = error.what();
    return result;
  }
  result.bytes_read = bytes.size();
  if (bytes.size() != count * 4) {
    throw Error(shown + ": holds " + std::to_string(bytes.size()) + " bytes, but " + source + " (" +
                request.summary_path + ") says " + std::to_string(count) + " float32 samples (" +
                std::to_string(count * 4) + " bytes)");
  }
  result.samples_ns.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + 4 * i);
    const std::uint32_t word = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 |
                               std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
    float value = 0.0f;
    std::memcpy(&value, &word, sizeof value);
    if (!std::isfinite(value) || value < 0.0f) {
      throw Error(shown + ": sample " + std::to_string(i) + " is " + std::to_string(value) +
                  ", not a time >= 0 s");
    }
    result.samples_ns.push_back(static_cast<double>(value) * 1e9);
  }
  result.status = NvbenchSampleFile::Status::read;
  return result;
}

}  // namespace kerntime::report
