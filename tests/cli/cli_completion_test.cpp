// SPDX-License-Identifier: Apache-2.0
// Shell completion as a user's shell runs it: the scripts the build writes, loaded into bash
// (complete_in_bash.bash calls the registered function with COMP_WORDS set) and into zsh
// (complete_in_zsh.zsh presses Tab in an interactive zsh on a pseudo-terminal). Every command
// the sources define, and every option its --help lists, must complete.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/run_command.hpp"

namespace kerntime {
namespace {

namespace fs = std::filesystem;
using testing::run_command;
using Words = std::set<std::string>;

const std::string cli = KERNTIME_CLI;
const fs::path completion_dir = KERNTIME_COMPLETION_DIR;
const std::string bash_script = (completion_dir / "kerntime.bash").string();
const std::string zsh_script = (completion_dir / "_kerntime").string();
const fs::path test_dir = KERNTIME_TEST_DATA_DIR;
const fs::path cli_sources = test_dir / "../../src/cli";

std::string quoted(const std::string& word) {
  std::string text = "'";
  for (const char c : word)
    text += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
  return text + "'";
}

std::string read(const fs::path& path) {
  std::ifstream in{path, std::ios::binary};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Words lines_of(const std::string& text) {
  Words lines;
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.insert(line);
  return lines;
}

std::string listed(const Words& words) {
  std::string text;
  for (const std::string& word : words)
    text += " " + word;
  return text;
}

// A folder with what file completion should find: two reports and a folder.
class Folder {
 public:
  Folder() {
    std::string pattern = (fs::temp_directory_path() / "kerntime-completion-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
    std::ofstream{path_ / "base.json"} << "{}";
    std::ofstream{path_ / "cand.json"} << "{}";
    fs::create_directory(path_ / "reports");
  }
  ~Folder() { fs::remove_all(path_); }
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// What bash offers for the last of `words` (the first is the program), in `folder`.
Words bash_completes(const std::vector<std::string>& words, const fs::path& folder = test_dir) {
  std::string command = "cd " + quoted(folder.string()) + " && bash " +
                        quoted((test_dir / "complete_in_bash.bash").string()) + " " +
                        quoted(bash_script);
  for (const std::string& word : words)
    command += " " + quoted(word);
  const auto result = run_command(command);
  EXPECT_EQ(result.exit_status, 0) << command << "\n" << result.err;
  EXPECT_EQ(result.err, "") << command;
  return lines_of(result.out);
}

bool has_zsh() {
  return run_command("command -v zsh").exit_status == 0;
}

// What zsh offers when Tab is pressed at the end of `line`, with the completion found on $fpath
// (`completion` a folder) or sourced (a file), in `folder`.
Words zsh_completes(const std::string& line, const fs::path& folder = test_dir,
                    const std::string& completion = completion_dir.string()) {
  const std::string command = "cd " + quoted(folder.string()) + " && zsh -f " +
                              quoted((test_dir / "complete_in_zsh.zsh").string()) + " " +
                              quoted(completion) + " " + quoted(line);
  const auto result = run_command(command);
  EXPECT_EQ(result.exit_status, 0) << command << "\n" << result.err;
  return lines_of(result.out);
}

// Every command the sources define: add_subcommand("NAME", ...) in src/cli.
Words commands_in_sources() {
  Words names;
  const std::regex added{R"re(add_subcommand\(\s*"([^"]+)")re"};
  for (const auto& entry : fs::directory_iterator(cli_sources)) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string text = read(entry.path());
    for (auto match = std::sregex_iterator(text.begin(), text.end(), added);
         match != std::sregex_iterator(); ++match)
      names.insert((*match)[1]);
  }
  return names;
}

// The option names (-o, --output) of the Options: section of `kerntime [COMMAND] --help`.
Words options_in_help(const std::string& command) {
  const auto help = run_command(cli + " " + command + " --help");
  EXPECT_EQ(help.exit_status, 0) << command << "\n" << help.err;
  Words names;
  std::istringstream in{help.out};
  bool in_options = false;
  const std::regex name{R"(-{1,2}[A-Za-z0-9][A-Za-z0-9_-]*)"};
  for (std::string line; std::getline(in, line);) {
    if (line == "Options:") {
      in_options = true;
      continue;
    }
    if (line.empty()) in_options = false;
    if (!in_options || line.rfind("  -", 0) != 0) continue;
    const std::string names_column = line.substr(2, line.find(' ', 2) - 2);  // "-o,--output"
    for (auto match = std::sregex_iterator(names_column.begin(), names_column.end(), name);
         match != std::sregex_iterator(); ++match)
      names.insert(match->str());
  }
  return names;
}

TEST(CliCompletion, TheBuildWritesWhatTheCommandPrints) {
  const auto bash = run_command(cli + " completion bash");
  ASSERT_EQ(bash.exit_status, 0) << bash.err;
  EXPECT_EQ(read(bash_script), bash.out);
  EXPECT_EQ(bash.out.rfind("# bash completion for kerntime", 0), 0u) << bash.out;
  const auto zsh = run_command(cli + " completion zsh");
  ASSERT_EQ(zsh.exit_status, 0) << zsh.err;
  EXPECT_EQ(read(zsh_script), zsh.out);
  // compinit reads the first line to know which command the file completes.
  EXPECT_EQ(zsh.out.rfind("#compdef kerntime\n", 0), 0u) << zsh.out;
}

TEST(CliCompletion, TheCommandIsHiddenButNamedInTheHelp) {
  const auto help = run_command(cli + " help");
  EXPECT_EQ(help.exit_status, 0) << help.err;
  EXPECT_NE(help.out.find("'kerntime completion bash' (or zsh)"), std::string::npos) << help.out;
  EXPECT_EQ(help.out.find("  completion "), std::string::npos) << help.out;
  const auto fish = run_command(cli + " completion fish");
  EXPECT_EQ(fish.exit_status, 2);
  EXPECT_NE(fish.err.find("fish"), std::string::npos) << fish.err;
  EXPECT_EQ(run_command(cli + " --check-arguments completion bash").exit_status, 0);
}

TEST(CliCompletion, WritesTheScriptToAFile) {
  const Folder folder;
  const fs::path file = folder.path() / "kerntime.bash";
  const auto result = run_command(cli + " completion bash -o " + quoted(file.string()));
  EXPECT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(read(file), read(bash_script));
}

TEST(CliCompletion, BashScriptParses) {
  const auto result = run_command("bash -n " + quoted(bash_script));
  EXPECT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(result.err, "");
}

TEST(CliCompletion, BashScriptPassesShellcheck) {
  if (run_command("command -v shellcheck").exit_status != 0)
    GTEST_SKIP() << "shellcheck is not installed (apt-get install shellcheck)";
  const auto result = run_command("shellcheck --shell=bash " + quoted(bash_script));
  EXPECT_EQ(result.exit_status, 0) << result.out << result.err;
}

TEST(CliCompletion, BashCompletesTheCommands) {
  EXPECT_EQ(bash_completes({"kerntime", ""}),
            (Words{"calibrate", "compare", "completion", "help", "info", "report", "run"}));
  EXPECT_EQ(bash_completes({"kerntime", "c"}), (Words{"calibrate", "compare", "completion"}));
  // A path to the command completes as the command does.
  EXPECT_EQ(bash_completes({"./build/default/src/cli/kerntime", "rep"}), Words{"report"});
  EXPECT_EQ(bash_completes({"kerntime", "--"}), (Words{"--help", "--version"}));
  EXPECT_EQ(bash_completes({"kerntime", "help", "r"}), (Words{"report", "run"}));
}

TEST(CliCompletion, BashCompletesTheOptionsOfTheCommand) {
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--th"}), Words{"--threshold"});
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--fail"}),
            (Words{"--fail-on-inconclusive", "--fail-on-removed"}));
  EXPECT_EQ(bash_completes({"kerntime", "report", "--t"}),
            (Words{"--threshold", "--trace-summary"}));
  // After an option and its value, and after an argument.
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--alpha", "0.05", "a.json", "--th"}),
            Words{"--threshold"});
  // Only the command's own: compare has no --timeline, and `kerntime info` only --help.
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--ti"}), Words{});
  EXPECT_EQ(bash_completes({"kerntime", "info", ""}), (Words{"--help", "-h"}));
}

TEST(CliCompletion, BashCompletesFilesAfterAnOptionThatTakesAFile) {
  const Folder folder;
  const Words files{"base.json", "cand.json", "reports"};
  EXPECT_EQ(bash_completes({"kerntime", "compare", "-o", ""}, folder.path()), files);
  EXPECT_EQ(bash_completes({"kerntime", "report", "--output", "b"}, folder.path()),
            Words{"base.json"});
  EXPECT_EQ(bash_completes({"kerntime", "run", "--timeline", "c"}, folder.path()),
            Words{"cand.json"});
  // --output=FILE, where COMP_WORDBREAKS makes '=' a word of its own, and where it does not.
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--output", "=", ""}, folder.path()), files);
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--output=ba"}, folder.path()),
            Words{"--output=base.json"});
  // The reports themselves, and a folder where one is asked for.
  EXPECT_EQ(bash_completes({"kerntime", "compare", "base.json", "c"}, folder.path()),
            Words{"cand.json"});
  EXPECT_EQ(bash_completes({"kerntime", "report", "base.json", "cand.json", ""}, folder.path()),
            files);
  EXPECT_EQ(bash_completes({"kerntime", "run", "--process-reports", ""}, folder.path()),
            Words{"reports"});
}

TEST(CliCompletion, BashCompletesChoicesAndNothingForFreeText) {
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--format", ""}),
            (Words{"html", "json", "junit", "markdown", "md", "table"}));
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--format", "=", "j"}),
            (Words{"json", "junit"}));
  EXPECT_EQ(bash_completes({"kerntime", "report", "--format=g"}), Words{"--format=gbench-json"});
  EXPECT_EQ(bash_completes({"kerntime", "run", "--names", ""}), (Words{"full", "short"}));
  EXPECT_EQ(bash_completes({"kerntime", "completion", ""}), (Words{"bash", "zsh"}));
  // A number or a pattern: nothing to offer, not the files of the folder.
  const Folder folder;
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--alpha", ""}, folder.path()), Words{});
  EXPECT_EQ(bash_completes({"kerntime", "compare", "--threshold", ""}, folder.path()), Words{});
}

TEST(CliCompletion, BashCompletesAProgramAndItsFilesAfterDashDash) {
  const Words programs = bash_completes({"kerntime", "run", "--", "bas"});
  EXPECT_TRUE(programs.count("bash") == 1) << listed(programs);
  const Folder folder;
  // The program's arguments: files, and never kerntime run's own options.
  EXPECT_EQ(bash_completes({"kerntime", "run", "--", "bash", "b"}, folder.path()),
            Words{"base.json"});
  EXPECT_EQ(bash_completes({"kerntime", "run", "--", "bash", "--ti"}, folder.path()), Words{});
}

// A new command or option cannot be left out: the scripts are written from the definition, and
// this checks the definition's every command and option against what completes.
TEST(CliCompletion, BashCompletesEveryCommandAndOption) {
  const Words commands = commands_in_sources();
  ASSERT_GE(commands.size(), 6u) << listed(commands);  // info ... run, completion
  Words expected = commands;
  expected.insert("help");
  EXPECT_EQ(bash_completes({"kerntime", ""}), expected);
  EXPECT_EQ(bash_completes({"kerntime", "-"}), options_in_help(""));
  for (const std::string& command : commands) {
    const Words options = options_in_help(command);
    EXPECT_TRUE(options.count("--help") == 1) << command << ":" << listed(options);
    EXPECT_EQ(bash_completes({"kerntime", command, "-"}), options) << command;
  }
}

TEST(CliCompletion, ZshScriptParses) {
  if (!has_zsh()) GTEST_SKIP() << "zsh is not installed (apt-get install zsh)";
  const auto result = run_command("zsh -n " + quoted(zsh_script));
  EXPECT_EQ(result.exit_status, 0) << result.err;
  EXPECT_EQ(result.err, "");
}

TEST(CliCompletion, ZshCompletesFromFpathAndWhenSourced) {
  if (!has_zsh()) GTEST_SKIP() << "zsh is not installed (apt-get install zsh)";
  const Words commands{"calibrate", "compare", "completion", "help", "info", "report", "run"};
  EXPECT_EQ(zsh_completes("kerntime "), commands);
  EXPECT_EQ(zsh_completes("kerntime ", test_dir, zsh_script), commands);
  // Sourced before compinit, it says what to do instead of failing on compdef.
  const auto early = run_command("zsh -f -c " + quoted("source " + quoted(zsh_script)));
  EXPECT_NE(early.err.find("run 'autoload -Uz compinit && compinit' first"), std::string::npos)
      << early.err;
}

TEST(CliCompletion, ZshCompletesOptionsFilesAndChoices) {
  if (!has_zsh()) GTEST_SKIP() << "zsh is not installed (apt-get install zsh)";
  const Folder folder;
  EXPECT_EQ(zsh_completes("kerntime compare --th"), Words{"--threshold"});
  EXPECT_EQ(zsh_completes("kerntime compare -o ", folder.path()),
            (Words{"base.json", "cand.json", "reports"}));
  EXPECT_EQ(zsh_completes("kerntime compare base.json c", folder.path()), Words{"cand.json"});
  EXPECT_EQ(zsh_completes("kerntime run --process-reports ", folder.path()), Words{"reports"});
  EXPECT_EQ(zsh_completes("kerntime compare --format=j"), (Words{"json", "junit"}));
  EXPECT_EQ(zsh_completes("kerntime report --names "), (Words{"full", "short"}));
  EXPECT_EQ(zsh_completes("kerntime compare --alpha ", folder.path()), Words{});
  EXPECT_EQ(zsh_completes("kerntime help r"), (Words{"report", "run"}));
  const Words programs = zsh_completes("kerntime run -- bas");
  EXPECT_TRUE(programs.count("bash") == 1) << listed(programs);
}

TEST(CliCompletion, ZshCompletesEveryCommandAndOption) {
  if (!has_zsh()) GTEST_SKIP() << "zsh is not installed (apt-get install zsh)";
  const Words commands = commands_in_sources();
  Words expected = commands;
  expected.insert("help");
  EXPECT_EQ(zsh_completes("kerntime "), expected);
  for (const std::string& command : commands) {
    Words offered = zsh_completes("kerntime " + command + " -");
    // Where a program may come (kerntime run), zsh offers its precommand modifier '-' too.
    if (command == "run") offered.erase("-");
    EXPECT_EQ(offered, options_in_help(command)) << command;
  }
}

}  // namespace
}  // namespace kerntime
