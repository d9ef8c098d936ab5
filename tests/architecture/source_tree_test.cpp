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

// Whether some include of `files` reaches layer `use`: a private header of src/<use.layer>/ or
// a public header it owns.
bool reaches(const std::vector<CheckedFile>& files, const Use& use) {
  for (const CheckedFile& file : files) {
    for (const Include& include : find_includes(read(kSourceDir / file.path))) {
      const bool hit = include.is_public
                           ? rules().owner_of(include.path) == use.layer
                           : !use.public_only && include.path.rfind(use.layer + "/", 0) == 0;
      if (hit) return true;
    }
  }
  return false;
}

// An edge the table allows and no file takes misleads a reader about what depends on what.
TEST_P(LayerTest, TakesEveryEdgeTheTableAllows) {
  const Layer* layer = rules().find_layer(GetParam());
  ASSERT_NE(layer, nullptr);
  const std::vector<CheckedFile> files = files_of(GetParam());
  std::vector<std::string> unused;
  for (const Use& use : layer->uses) {
    if (use.layer != "*" && !reaches(files, use)) unused.push_back(use.layer);
  }
  EXPECT_TRUE(unused.empty()) << GetParam() << " may use, but includes nothing of:\n"
                              << joined(unused)
                              << "remove the edge from tests/architecture/layers.txt and "
                                 "docs/architecture.md";
}

// The "May use" column of docs/architecture.md's layer table, in layers.txt's spelling.
std::map<std::string, std::string> documented_uses() {
  std::map<std::string, std::string> uses;
  std::istringstream doc{read(kSourceDir / "docs/architecture.md")};
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::istringstream row{line.substr(1)};
    for (std::string cell; std::getline(row, cell, '|');)
      cells.push_back(cell);
    if (cells.size() < 4) continue;
    const auto trim = [](std::string text) {
      text.erase(0, text.find_first_not_of(' '));
      text.erase(text.find_last_not_of(' ') + 1);
      return text;
    };
    const std::string name = trim(cells[0]);
    if (name.size() < 3 || name.find(' ') != std::string::npos) continue;
    std::string spelled;
    std::istringstream list{trim(cells[2])};
    for (std::string use; std::getline(list, use, ',');) {
      use = trim(use.substr(0, use.find(" (")));
      if (use == "nothing") continue;
      if (use == "public headers of every layer") use = "*(public)";
      const std::size_t own = use.find("'s public headers");
      if (own != std::string::npos) use = use.substr(0, own) + "(public)";
      spelled += (spelled.empty() ? "" : " ") + use;
    }
    uses[name.substr(1, name.size() - 2)] = spelled;
  }
  return uses;
}

TEST(SourceTreeTest, ArchitectureDocShowsTheTableOfLayersTxt) {
  const std::map<std::string, std::string> documented = documented_uses();
  std::vector<std::string> differences;
  for (const Layer& layer : rules().layers) {
    std::string table;
    for (const Use& use : layer.uses)
      table += (table.empty() ? "" : " ") + use.layer + (use.public_only ? "(public)" : "");
    const auto found = documented.find(layer.name);
    if (found == documented.end()) {
      differences.push_back(layer.name + ": no row");
    } else if (found->second != table) {
      differences.push_back(layer.name + ": the doc says \"" + found->second + "\", layers.txt \"" +
                            table + "\"");
    }
  }
  EXPECT_TRUE(differences.empty())
      << "docs/architecture.md's layer table differs from tests/architecture/layers.txt:\n"
      << joined(differences);
}

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
