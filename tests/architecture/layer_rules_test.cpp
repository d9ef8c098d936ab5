// SPDX-License-Identifier: Apache-2.0
// The checker itself, on small tables and files: it must catch each kind of forbidden include,
// or a green source-tree check would prove nothing.
#include "layer_rules.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kerntime::architecture {
namespace {

constexpr const char* kTable = R"(# a small stack
layer stats:
layer cuda:
layer report:  stats
layer events:  cuda report
layer format:  report events(public)
layer cli:     *(public)
public stats:  statistics.hpp
public cuda:   gpu_status.hpp
public report: report.hpp
public events: session.hpp
public format: format.hpp
vocabulary: error.hpp
umbrella: kerntime.hpp
)";

std::vector<std::string> check(const CheckedFile& file, const std::string& source) {
  return check_includes(parse_rules(kTable), file, find_includes(source));
}

TEST(LayerRulesTest, ParsesTheTable) {
  const Rules rules = parse_rules(kTable);
  ASSERT_EQ(rules.layers.size(), 6u);
  EXPECT_EQ(rules.layers[4].name, "format");
  ASSERT_EQ(rules.layers[4].uses.size(), 2u);
  EXPECT_EQ(rules.layers[4].uses[1].layer, "events");
  EXPECT_TRUE(rules.layers[4].uses[1].public_only);
  EXPECT_FALSE(rules.layers[4].uses[0].public_only);
  EXPECT_EQ(rules.owner_of("session.hpp"), "events");
  EXPECT_FALSE(rules.owner_of("error.hpp"));
  EXPECT_TRUE(rules.is_vocabulary("error.hpp"));
  EXPECT_TRUE(rules.is_umbrella("kerntime.hpp"));
}

TEST(LayerRulesTest, FindsKerntimeIncludesOnly) {
  const std::vector<Include> includes = find_includes(
      "#include <vector>\n"
      "#include <fmt/format.h>\n"
      "#include \"cupti.h\"\n"
      "#  include <kerntime/report.hpp>\n"
      "// a comment\n"
      "#include \"cuda/cuda_check.hpp\"\n");
  ASSERT_EQ(includes.size(), 2u);
  EXPECT_TRUE(includes[0].is_public);
  EXPECT_EQ(includes[0].path, "report.hpp");
  EXPECT_EQ(includes[0].line, 4);
  EXPECT_FALSE(includes[1].is_public);
  EXPECT_EQ(includes[1].path, "cuda/cuda_check.hpp");
  EXPECT_EQ(includes[1].line, 6);
}

TEST(LayerRulesTest, AcceptsAllowedIncludes) {
  EXPECT_TRUE(check({"src/events/session.cpp", "events", ""},
                    "#include \"events/session_impl.hpp\"\n"  // its own layer
                    "#include \"cuda/cuda_check.hpp\"\n"      // a private header it may use
                    "#include <kerntime/report.hpp>\n"
                    "#include <kerntime/error.hpp>\n")  // vocabulary
                  .empty());
  EXPECT_TRUE(check({"src/format/a.cpp", "format", ""},
                    "#include <kerntime/session.hpp>\n#include \"report/x.hpp\"\n")
                  .empty());
  EXPECT_TRUE(check({"src/cli/main.cpp", "cli", ""},
                    "#include <kerntime/session.hpp>\n#include <kerntime/gpu_status.hpp>\n"
                    "#include \"cli/commands.hpp\"\n")
                  .empty());
  EXPECT_TRUE(check({"include/kerntime/kerntime.hpp", "", "kerntime.hpp"},
                    "#include <kerntime/format.hpp>\n#include <kerntime/gpu_status.hpp>\n")
                  .empty());
}

TEST(LayerRulesTest, RejectsALayerIncludingOneAboveIt) {
  const std::vector<std::string> violations =
      check({"src/report/report.cpp", "report", ""}, "\n#include <kerntime/format.hpp>\n");
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0],
            "src/report/report.cpp:2: layer report includes <kerntime/format.hpp>: format.hpp "
            "belongs to format, and report may use stats");
  const std::vector<std::string> format =
      check({"src/format/a.cpp", "format", ""}, "#include <kerntime/gpu_status.hpp>\n");
  ASSERT_EQ(format.size(), 1u);
  EXPECT_NE(format[0].find("format may use report, events (public headers only)"),
            std::string::npos)
      << format[0];
  EXPECT_EQ(check({"src/report/report.cpp", "report", ""}, "#include \"events/x.hpp\"\n").size(),
            1u);
}

TEST(LayerRulesTest, RejectsAPrivateHeaderOfAPublicOnlyLayer) {
  const std::vector<std::string> violations =
      check({"src/format/a.cpp", "format", ""}, "#include \"events/event_pool.hpp\"\n");
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_NE(violations[0].find("format may use only the public headers of events"),
            std::string::npos)
      << violations[0];
  const std::vector<std::string> cli =
      check({"src/cli/info.cpp", "cli", ""}, "#include \"cuda/driver_release.hpp\"\n");
  ASSERT_EQ(cli.size(), 1u);
  EXPECT_NE(cli[0].find("use a public header of cuda instead"), std::string::npos) << cli[0];
}

TEST(LayerRulesTest, RejectsAPublicHeaderIncludingAPrivateOrHigherOne) {
  EXPECT_EQ(check({"include/kerntime/report.hpp", "report", "report.hpp"},
                  "#include \"report/json_reader.hpp\"\n")
                .size(),
            1u);
  EXPECT_EQ(check({"include/kerntime/gpu_status.hpp", "cuda", "gpu_status.hpp"},
                  "#include <kerntime/report.hpp>\n")
                .size(),
            1u);
  EXPECT_EQ(
      check({"include/kerntime/error.hpp", "", "error.hpp"}, "#include <kerntime/report.hpp>\n")
          .size(),
      1u);
}

TEST(LayerRulesTest, RejectsUnknownHeadersAndLayers) {
  EXPECT_EQ(check({"src/cli/a.cpp", "cli", ""}, "#include <kerntime/new_thing.hpp>\n").size(), 1u);
  EXPECT_EQ(check({"src/cli/a.cpp", "cli", ""}, "#include \"nowhere/x.hpp\"\n").size(), 1u);
  EXPECT_EQ(check({"src/cli/a.cpp", "cli", ""}, "#include <kerntime/kerntime.hpp>\n").size(), 1u);
}

TEST(LayerRulesTest, RejectsATableWithACycleOrAnUnknownName) {
  // A layer may use only layers listed before it: an edge downwards from below is a cycle.
  EXPECT_THROW(parse_rules("layer a: b\nlayer b:\n"), std::runtime_error);
  EXPECT_THROW(parse_rules("layer a:\nlayer a:\n"), std::runtime_error);
  EXPECT_THROW(parse_rules("layer a: a\n"), std::runtime_error);
  EXPECT_THROW(parse_rules("layer a: *\n"), std::runtime_error);
  EXPECT_THROW(parse_rules("layer a:\npublic b: b.hpp\n"), std::runtime_error);
  EXPECT_THROW(parse_rules("layer a:\npublic a: a.hpp\nvocabulary: a.hpp\n"), std::runtime_error);
  EXPECT_THROW(parse_rules("layer a:\nlayers b:\n"), std::runtime_error);
  EXPECT_THROW(parse_rules("# nothing\n"), std::runtime_error);
}

}  // namespace
}  // namespace kerntime::architecture
