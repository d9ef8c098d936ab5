// SPDX-License-Identifier: Apache-2.0
// Checks every file of src/ and include/kerntime/ against layers.txt: one test per layer (its
// sources and its public headers), so that CTest names the layer that broke a rule.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "layer_rules.hpp"

namespace kerntime::architecture {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir{KERNTIME_SOURCE_DIR};
const fs::path kRulesFile = kSourceDir / "tests/architecture/layers.txt";

std::string read(const fs::path& path) {
  std::ifstream in{path, std::ios::binary};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Rules are read once; a malformed table fails every test with the parser's message.
const Rules& rules() {
  static const Rules parsed = parse_rules(read(kRulesFile));
  return parsed;
}

bool is_code(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".hpp" || ext == ".cpp" || ext == ".h" || ext == ".cu" || ext == ".cuh";
}

std::string repo_path(const fs::path& path) {
  return path.lexically_relative(kSourceDir).generic_string();
}

// Every file that belongs to `layer`: src/<layer>/** and its public headers.
std::vector<CheckedFile> files_of(const std::string& layer) {
  std::vector<CheckedFile> files;
  const fs::path folder = kSourceDir / "src" / layer;
  if (fs::is_directory(folder))
    for (const auto& entry : fs::recursive_directory_iterator(folder))
      if (entry.is_regular_file() && is_code(entry.path()))
        files.push_back({repo_path(entry.path()), layer, ""});
  for (const auto& entry : fs::directory_iterator(kSourceDir / "include/kerntime")) {
    const std::string name = entry.path().filename().string();
    if (rules().owner_of(name) == layer) files.push_back({repo_path(entry.path()), layer, name});
  }
  std::sort(files.begin(), files.end(),
            [](const CheckedFile& a, const CheckedFile& b) { return a.path < b.path; });
  return files;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines)
    text += "  " + line + "\n";
  return text;
}

std::vector<std::string> layer_names() {
  std::vector<std::string> names;
  try {
    for (const Layer& layer : rules().layers)
      names.push_back(layer.name);
  } catch (const std::exception&) {
    names.push_back("unreadable_table");  // the test of that name reports the parse error
  }
  return names;
}

class LayerTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LayerTest, IncludesOnlyWhatTheTableAllows) {
  const Rules& table = rules();
  const std::vector<CheckedFile> files = files_of(GetParam());
  std::vector<std::string> violations;
  for (const CheckedFile& file : files) {
    const std::vector<std::string> found =
        check_includes(table, file, find_includes(read(kSourceDir / file.path)));
    violations.insert(violations.end(), found.begin(), found.end());
  }
  EXPECT_TRUE(violations.empty())
      << violations.size() << " include(s) against tests/architecture/layers.txt; move the code "
      << "to the layer it belongs to, or include a public header the layer may use:\n"
      << joined(violations);
}

INSTANTIATE_TEST_SUITE_P(Layers, LayerTest, ::testing::ValuesIn(layer_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(SourceTreeTest, EveryFolderOfSrcIsALayer) {
  std::vector<std::string> unknown;
  for (const auto& entry : fs::directory_iterator(kSourceDir / "src"))
    if (entry.is_directory() && rules().find_layer(entry.path().filename().string()) == nullptr)
      unknown.push_back(repo_path(entry.path()));
  EXPECT_TRUE(unknown.empty()) << "add a \"layer\" line to tests/architecture/layers.txt for:\n"
                               << joined(unknown);
}

TEST(SourceTreeTest, EveryPublicHeaderHasALayerAndFollowsTheRules) {
  std::vector<std::string> problems;
  for (const auto& entry : fs::directory_iterator(kSourceDir / "include/kerntime")) {
    const std::string name = entry.path().filename().string();
    if (!is_code(entry.path())) continue;
    if (rules().owner_of(name)) continue;  // checked with its layer
    if (!rules().is_vocabulary(name) && !rules().is_umbrella(name)) {
      problems.push_back(repo_path(entry.path()) +
                         ": belongs to no layer; add it to a \"public\" line of layers.txt");
      continue;
    }
    const std::vector<std::string> found = check_includes(
        rules(), {repo_path(entry.path()), "", name}, find_includes(read(entry.path())));
    problems.insert(problems.end(), found.begin(), found.end());
  }
  EXPECT_TRUE(problems.empty()) << joined(problems);
}

}  // namespace
}  // namespace kerntime::architecture
