// SPDX-License-Identifier: Apache-2.0
// Every error message is one line (tools grep them, CI shows the first line), also when it
// quotes an option value or a command word with a line break or another control character in it.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

using testing::run_command;

const std::string cli = KERNTIME_CLI;
const std::string data = std::string{KERNTIME_TEST_DATA_DIR} + "/../compare/data/";

// A shell word that is "a", a line break, ESC and "b" (printf: /bin/sh has no $'...').
const std::string kBroken = "\"$(printf 'a\\n\\033b')\"";

TEST(CliOneLine, AnOptionValueWithALineBreakGivesOneLine) {
  const std::string reports = data + "base.json " + data + "slower.json";
  for (const std::string& args : std::vector<std::string>{
           "run --capture-range " + kBroken + " -- true",
           "run --format " + kBroken + " -- true",
           "run --checkpoint " + kBroken + " -- true",
           "run --samples-per-kernel " + kBroken + " -- true",
           "run --process-reports /dev/null/" + kBroken + " -- true",
           "run -o /no/such/" + kBroken + " -- true",
           "run -- /no/such/" + kBroken,
           "report --format " + kBroken + " " + data + "base.json",
           "report --trace-summary " + kBroken + " " + data + "base.json",
           "compare --threshold " + kBroken + " " + reports,
           "compare --min-samples " + kBroken + " " + reports,
           "compare --min-change " + kBroken + " " + reports,
           "compare --alpha " + kBroken + " " + reports,
           "compare --color " + kBroken + " " + reports,
           "report --no-such-option" + kBroken + " " + data + "base.json",
           kBroken,
       }) {
    const auto result = run_command(cli + " " + args);
    EXPECT_EQ(result.exit_status, 2) << args;
    EXPECT_EQ(testing::line_count(result.err), 1) << args << ": " << result.err;
    EXPECT_EQ(result.err.find('\033'), std::string::npos) << args << ": " << result.err;
    // The value is still there, escaped as JSON escapes it.
    EXPECT_NE(result.err.find("a\\n\\u001bb"), std::string::npos) << args << ": " << result.err;
  }
}

}  // namespace
}  // namespace kerntime
