// SPDX-License-Identifier: Apache-2.0
// The kernel fixed cost's memory: the cache file's lines, where it lives, and a value written
// by one engine found by the next (in this process, and from the file after the process
// forgot it), without a GPU.
#include "bench/fixed_cost.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace kerntime::bench {
namespace {

const FixedCostKey kH200{"GPU-5c3f0a1b-0000-1111-2222-333344445555", 13000};
const FixedCostKey kOther{"GPU-00000000-aaaa-bbbb-cccc-ddddeeeeffff", 13000};

// Sets an environment variable for one test and restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_.empty()) {
      ::unsetenv(name_);
    } else {
      ::setenv(name_, old_.c_str(), 1);
    }
  }

 private:
  const char* name_;
  std::string old_;
};

TEST(FixedCostCache, LinesAreKeyedByGpuAndDriver) {
  const std::string text = cache_text_with("", kH200, 608.0);
  EXPECT_EQ(text.rfind("# kerntime: ", 0), 0u) << text;
  EXPECT_NE(text.find("GPU-5c3f0a1b-0000-1111-2222-333344445555 13000 608\n"), std::string::npos)
      << text;
  EXPECT_EQ(cached_value(text, kH200), 608.0);
  EXPECT_FALSE(cached_value(text, kOther).has_value());
  EXPECT_FALSE(cached_value(text, FixedCostKey{kH200.device_uuid, 12080}).has_value())
      << "another driver's value is not this driver's";
}

TEST(FixedCostCache, ANewValueReplacesTheGpusLineAndKeepsTheOthers) {
  std::string text = cache_text_with("", kOther, 550.5);
  text = cache_text_with(text, kH200, 608.0);
  text = cache_text_with(text, FixedCostKey{kH200.device_uuid, 13010}, 640.0);
  EXPECT_EQ(cached_value(text, kOther), 550.5);
  EXPECT_FALSE(cached_value(text, kH200).has_value()) << "the old driver's line went";
  EXPECT_EQ(cached_value(text, FixedCostKey{kH200.device_uuid, 13010}), 640.0);
}

TEST(FixedCostCache, DamagedAndImplausibleLinesAreSkipped) {
  const std::string text =
      "# comment\ngarbage\nGPU-5c3f0a1b-0000-1111-2222-333344445555 13000 -4\n"
      "GPU-5c3f0a1b-0000-1111-2222-333344445555 13000 1e9\n"
      "GPU-5c3f0a1b-0000-1111-2222-333344445555 13000 nan\n";
  EXPECT_FALSE(cached_value(text, kH200).has_value());
  EXPECT_EQ(cached_value(text + "GPU-5c3f0a1b-0000-1111-2222-333344445555 13000 612.5\n", kH200),
            612.5);
}

TEST(FixedCostCache, ThePathFollowsTheEnvironment) {
  const ScopedEnv no_cache{"KERNTIME_NO_CACHE", nullptr};
  {
    const ScopedEnv dir{"KERNTIME_CACHE_DIR", "/tmp/kt-cache"};
    EXPECT_EQ(fixed_cost_cache_path(), "/tmp/kt-cache/kernel-fixed-cost.txt");
  }
  const ScopedEnv dir{"KERNTIME_CACHE_DIR", nullptr};
  {
    const ScopedEnv xdg{"XDG_CACHE_HOME", "/home/u/.xdg"};
    EXPECT_EQ(fixed_cost_cache_path(), "/home/u/.xdg/kerntime/kernel-fixed-cost.txt");
  }
  const ScopedEnv xdg{"XDG_CACHE_HOME", nullptr};
  {
    const ScopedEnv home{"HOME", "/home/u"};
    EXPECT_EQ(fixed_cost_cache_path(), "/home/u/.cache/kerntime/kernel-fixed-cost.txt");
    const ScopedEnv zero{"KERNTIME_NO_CACHE", "0"};
    EXPECT_EQ(fixed_cost_cache_path(), "/home/u/.cache/kerntime/kernel-fixed-cost.txt");
  }
  const ScopedEnv off{"KERNTIME_NO_CACHE", "1"};
  const ScopedEnv relocated{"KERNTIME_CACHE_DIR", "/tmp/kt-cache"};
  EXPECT_EQ(fixed_cost_cache_path(), "");
}

TEST(FixedCostCache, AValueRememberedIsFoundInTheProcessThenInTheFile) {
  const std::string dir = ::testing::TempDir() + "kerntime_fixed_cost_cache/nested";
  std::filesystem::remove_all(dir);
  const ScopedEnv no_cache{"KERNTIME_NO_CACHE", nullptr};
  const ScopedEnv relocated{"KERNTIME_CACHE_DIR", dir.c_str()};
  forget_remembered_fixed_costs();
  EXPECT_FALSE(remembered_fixed_cost(kH200).ns.has_value());

  remember_fixed_cost(kH200, 608.0);
  FixedCost known = remembered_fixed_cost(kH200);
  EXPECT_EQ(known.ns, 608.0);
  EXPECT_EQ(known.source, "process");

  forget_remembered_fixed_costs();  // as a later process, which has only the file
  known = remembered_fixed_cost(kH200);
  EXPECT_EQ(known.ns, 608.0);
  EXPECT_EQ(known.source, "cache");
  std::ifstream in{dir + "/kernel-fixed-cost.txt"};
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find(kH200.device_uuid + " 13000 608"), std::string::npos) << text.str();

  // Disabled, the file is neither read nor written; the process still remembers.
  const ScopedEnv off{"KERNTIME_NO_CACHE", "1"};
  forget_remembered_fixed_costs();
  EXPECT_FALSE(remembered_fixed_cost(kH200).ns.has_value());
  remember_fixed_cost(kOther, 550.0);
  EXPECT_EQ(remembered_fixed_cost(kOther).source, "process");
  forget_remembered_fixed_costs();
}

TEST(FixedCostCache, AnUnwritableFolderIsNotAnError) {
  const ScopedEnv no_cache{"KERNTIME_NO_CACHE", nullptr};
  const ScopedEnv relocated{"KERNTIME_CACHE_DIR", "/proc/kerntime-cannot-write-here"};
  forget_remembered_fixed_costs();
  EXPECT_NO_THROW(remember_fixed_cost(kH200, 608.0));
  EXPECT_EQ(remembered_fixed_cost(kH200).source, "process");
  forget_remembered_fixed_costs();
}

}  // namespace
}  // namespace kerntime::bench
