// SPDX-License-Identifier: Apache-2.0
// libkerntime.so exports only the public API, and libkerntime_inject.so only its entry points.
// The rules are proved on small examples first, then the built libraries are listed with
// `nm -D --defined-only -C` and checked against the namespaces of src/ and include/kerntime/.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "symbol_rules.hpp"

namespace kerntime::architecture {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in{path, std::ios::binary};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines)
    text += "  " + line + "\n";
  return text;
}

bool is_code(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".hpp" || ext == ".cpp" || ext == ".h" || ext == ".cu" || ext == ".cuh";
}

// The rules of the real tree: namespaces of src/ less those of include/kerntime/.
SymbolRules tree_rules() {
  const fs::path source_dir{KERNTIME_SOURCE_DIR};
  SymbolRules rules;
  std::set<std::string> src_namespaces;
  for (const auto& entry : fs::recursive_directory_iterator(source_dir / "src")) {
    if (!entry.is_regular_file() || !is_code(entry.path())) continue;
    for (const std::string& name : declared_namespaces(read(entry.path()))) {
      src_namespaces.insert(name);
    }
  }
  for (const auto& entry : fs::directory_iterator(source_dir / "include/kerntime")) {
    if (!entry.is_regular_file() || !is_code(entry.path())) continue;
    const std::string text = read(entry.path());
    for (const std::string& name : declared_namespaces(text))
      rules.public_namespaces.insert(name);
    for (const std::string& name : identifiers(text))
      rules.public_identifiers.insert(name);
  }
  for (const std::string& name : src_namespaces) {
    if (rules.public_namespaces.count(name) == 0) rules.private_namespaces.insert(name);
  }
  return rules;
}

// The demangled dynamic symbols a library defines.
std::vector<std::string> exported_symbols(const std::string& library) {
  const std::string command =
      std::string{"'"} + KERNTIME_NM + "' -D --defined-only -C '" + library + "' 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe{::popen(command.c_str(), "r"), ::pclose};
  if (!pipe) throw std::runtime_error("cannot run " + command);
  std::string text;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) > 0;) {
    text.append(buffer.data(), n);
  }
  return parse_nm_output(text);
}

SymbolRules example_rules() {
  SymbolRules rules;
  rules.private_namespaces = {"bench", "cupti", "format", "inject"};
  rules.public_namespaces = {"detail"};
  rules.public_identifiers = {"benchmark_name_from_spelling", "Report"};
  return rules;
}

TEST(SymbolRules, FindsTheNamespacesASourceDeclares) {
  EXPECT_EQ(declared_namespaces("namespace kerntime::report::gbench {\n"
                                "namespace detail {\n"
                                "namespace {\n"
                                "namespace fs = std::filesystem;\n"
                                "}  // namespace kerntime::report::gbench\n"),
            (std::set<std::string>{"detail", "gbench", "report"}));
}

TEST(SymbolRules, APrivateNamespaceIsNamedAfterItsFolder) {
  EXPECT_EQ(folder_namespace("format"), "format");
  EXPECT_EQ(folder_namespace("compare"), "compare_detail");  // kerntime::compare() is public
  EXPECT_TRUE(misnamed_namespaces("report",
                                  "namespace kerntime::report::gbench {\n"
                                  "}  // namespace kerntime::report::gbench\n"
                                  "namespace kerntime {\nnamespace report {\n"
                                  "namespace {\nnamespace inner {\n")
                  .empty());
  // A namespace of its own outside kerntime (a test program's) is not the library's.
  EXPECT_TRUE(
      misnamed_namespaces("cli", "namespace {\n}  // namespace\nnamespace tool {\n").empty());
  EXPECT_EQ(misnamed_namespaces("cuda",
                                "namespace kerntime::detail {\n}  // namespace kerntime::detail\n"
                                "namespace kerntime::io {\n}  // namespace kerntime::io\n"
                                "namespace kerntime::cuda_detail {\n"),
            (std::vector<std::string>{"kerntime::io", "kerntime::cuda_detail"}));
  EXPECT_EQ(misnamed_namespaces("text",
                                "namespace kerntime {\nnamespace text_detail {\n"
                                "}  // namespace text_detail\nnamespace {\n"),
            (std::vector<std::string>{"text_detail"}));
}

TEST(SymbolRules, EveryPrivateNamespaceOfSrcIsNamedAfterItsFolder) {
  const fs::path source_dir{KERNTIME_SOURCE_DIR};
  std::vector<std::string> problems;
  for (const auto& folder : fs::directory_iterator(source_dir / "src")) {
    if (!folder.is_directory()) continue;
    const std::string name = folder.path().filename().string();
    for (const auto& entry : fs::recursive_directory_iterator(folder.path())) {
      if (!entry.is_regular_file() || !is_code(entry.path())) continue;
      for (const std::string& ns : misnamed_namespaces(name, read(entry.path())))
        problems.push_back(entry.path().lexically_relative(source_dir).generic_string() + ": " +
                           ns + " (expected kerntime::" + folder_namespace(name) + ")");
    }
  }
  EXPECT_TRUE(problems.empty()) << "rename these namespaces after their folder:\n"
                                << joined(problems);
}

TEST(SymbolRules, PrivateNamespacesAnywhereInASymbolArePrivate) {
  const std::vector<std::string> symbols{
      "kerntime::bench::select_configurations(kerntime::BenchmarkRegistry const&)",
      "typeinfo for kerntime::cupti::CuptiApi",
      "void std::vector<kerntime::inject::Row, std::allocator<kerntime::inject::Row> >::f()",
      "kerntime::format::Grid::render() const",
      "kerntime::detail::EventPool::close(unsigned int)",
  };
  EXPECT_EQ(private_symbols(symbols, example_rules()), symbols);
}

TEST(SymbolRules, ThePublicApiIsNotPrivate) {
  const std::vector<std::string> symbols{
      "kerntime::Report::find(std::string const&) const",
      "typeinfo for kerntime::Error",
      "kerntime::detail::benchmark_name_from_spelling[abi:cxx11](std::string_view)",
      "void std::vector<kerntime::Entry, std::allocator<kerntime::Entry> >::f()",
      "std::__detail::_Scanner<char>::_M_advance()",
      "InitializeInjection",
      "mykerntime::bench::f()",
  };
  EXPECT_EQ(private_symbols(symbols, example_rules()), std::vector<std::string>{});
}

TEST(SymbolRules, ReadsNamesFromNmOutput) {
  EXPECT_EQ(parse_nm_output("00000000000299f0 T InitializeInjection\n"
                            "0000000000162240 V typeinfo for kerntime::Error\n"
                            "\n"),
            (std::vector<std::string>{"InitializeInjection", "typeinfo for kerntime::Error"}));
}

TEST(ExportedSymbols, SourceTreeHasPrivateNamespaces) {
  // A scan that finds nothing would let every symbol pass.
  const SymbolRules rules = tree_rules();
  for (const char* name : {"bench", "cupti", "inject", "io", "trace"}) {
    EXPECT_EQ(rules.private_namespaces.count(name), 1u) << name;
  }
  EXPECT_EQ(rules.public_namespaces.count("detail"), 1u);
}

TEST(ExportedSymbols, LibkerntimeExportsOnlyThePublicApi) {
  const std::vector<std::string> symbols = exported_symbols(KERNTIME_LIBRARY);
  // The public API itself must be there: a parse that reads nothing would pass.
  const std::set<std::string> names(symbols.begin(), symbols.end());
  EXPECT_EQ(names.count("typeinfo for kerntime::Error"), 1u) << "nm printed:\n" << joined(symbols);
  const std::vector<std::string> leaked = private_symbols(symbols, tree_rules());
  EXPECT_TRUE(leaked.empty()) << KERNTIME_LIBRARY << " exports " << leaked.size()
                              << " symbols of kerntime's private code; mark only public API "
                                 "with KERNTIME_API (include/kerntime/export.hpp):\n"
                              << joined(leaked);
}

TEST(ExportedSymbols, InjectionLibraryExportsOnlyItsEntryPoints) {
  const std::vector<std::string> symbols = exported_symbols(KERNTIME_INJECT_LIBRARY);
  EXPECT_EQ(std::set<std::string>(symbols.begin(), symbols.end()),
            (std::set<std::string>{"InitializeInjection", "InitializeInjectionNvtx2"}))
      << KERNTIME_INJECT_LIBRARY << " exports what src/inject/exports.map does not list:\n"
      << joined(symbols);
}

}  // namespace
}  // namespace kerntime::architecture
