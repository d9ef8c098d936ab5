// SPDX-License-Identifier: Apache-2.0
#include "nvbench_sandbox.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "support/nvbench_sample_file.hpp"

namespace kerntime::fuzz {
namespace {

namespace fs = std::filesystem;

// Seconds no honest input gives as a pair in this order.
constexpr float kSecret[] = {4.25e-3f, 7.5e-3f};

class Sandbox {
 public:
  Sandbox()
      : root_(fs::temp_directory_path() /
              ("kerntime-fuzz-nvbench-" + std::to_string(static_cast<long>(::getpid())))) {
    fs::remove_all(root_);
    const fs::path json = root_ / "json";
    testing::write_nvbench_samples(root_ / "secret.bin", {kSecret[0], kSecret[1]});
    testing::write_nvbench_samples(root_ / "outside/0.bin", {kSecret[0], kSecret[1]});
    testing::write_nvbench_samples(json / "nvbench_jsonbin.json-bin/0.bin",
                                   {1.8304e-05f, 1.8336e-05f, 1.8272e-05f, 1.84e-05f, 1.8368e-05f});
    testing::write_nvbench_samples(json / "nvbench_jsonbin.json-bin/1.bin",
                                   {3.6304e-05f, 3.6288e-05f, 3.6224e-05f, 3.6368e-05f});
    fs::create_symlink("nvbench_jsonbin.json-bin/0.bin", json / "inside.bin");
    fs::create_symlink("../secret.bin", json / "secret.bin");
    fs::create_symlink("../outside", json / "out");
    fs::create_symlink(root_ / "secret.bin", json / "absolute.bin");
    fs::create_symlink("../no-such-file", json / "dangling.bin");
    fs::create_symlink("/dev/zero", json / "zero");
    if (::mkfifo((json / "fifo.bin").c_str(), 0600) != 0) {
      throw std::runtime_error("fuzz sandbox: cannot make a FIFO in " + json.string());
    }
    folder_ = json.string();
  }
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;
  ~Sandbox() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  const std::string& folder() const { return folder_; }

 private:
  fs::path root_;
  std::string folder_;
};

}  // namespace

const std::string& nvbench_sample_folder() {
  static const Sandbox sandbox;
  return sandbox.folder();
}

bool holds_the_secret(const Report& report) {
  const double first = static_cast<double>(kSecret[0]) * 1e9;
  const double second = static_cast<double>(kSecret[1]) * 1e9;
  for (const Entry& entry : report.entries) {
    for (std::size_t i = 0; i + 1 < entry.samples.size(); ++i) {
      if (entry.samples[i] == first && entry.samples[i + 1] == second) return true;
    }
  }
  return false;
}

}  // namespace kerntime::fuzz
