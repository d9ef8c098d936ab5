// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <kerntime/error.hpp>
#include <kerntime/version.hpp>

#include "cli/commands.hpp"
#include "cli/did_you_mean.hpp"
#include "cli/standard_descriptors.hpp"
#include "io/diagnostic.hpp"
#include "io/file_writer.hpp"

namespace {

// Help and version as CLI11 renders them, written as every output a user asked for is: when
// standard output cannot take them (>/dev/full, closed), the command fails (exit status 2).
int print_requested(const CLI::App& app, const CLI::Error& request) {
  std::ostringstream out;
  std::ostringstream err;
  const int status = app.exit(request, out, err);
  kerntime::io::write_diagnostic(err.str());
  try {
    kerntime::io::write_standard_output(out.str());
  } catch (const kerntime::Error& error) {
    kerntime::io::write_error_line("kerntime: ", error.what());
    return 2;
  }
  return status;
}

// "unknown option '--treshold'; did you mean '--threshold'?" for the first long option of
// `words` that its command (and the top level) does not know; "" when every one is known.
std::string unknown_option(const CLI::App& app, const std::vector<std::string>& words) {
  const CLI::App* command = &app;
  for (const std::string& word : words) {
    if (word == "--") break;
    if (command == &app && !word.empty() && word[0] != '-') {
      for (const CLI::App* sub : app.get_subcommands({})) {
        if (sub->get_name() == word) command = sub;
      }
      continue;
    }
    if (word.size() < 3 || word.rfind("--", 0) != 0) continue;
    const std::string name = word.substr(0, word.find('='));
    std::vector<std::string> known;
    for (const CLI::App* level : {command, static_cast<const CLI::App*>(&app)}) {
      for (const CLI::Option* option : level->get_options()) {
        for (const std::string& long_name : option->get_lnames())
          known.push_back("--" + long_name);
      }
    }
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    const std::string near = kerntime::cli::closest(name, known);
    return "unknown option '" + name + "'" +
           (near.empty() ? std::string{"."} : "; did you mean '" + near + "'?");
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  kerntime::cli::hold_closed_standard_descriptors();
  CLI::App app{"kerntime: measure CUDA kernels as GPU time, not enqueue time.", "kerntime"};
  app.require_subcommand(1);
  app.set_version_flag("--version", [] { return kerntime::cli::version_text(); });

  int exit_status = 0;
  std::vector<std::string> words(argv, argv + argc);
  kerntime::cli::add_info_command(app, exit_status);
  kerntime::cli::add_calibrate_command(app, exit_status);
  kerntime::cli::add_compare_command(app, exit_status);
  kerntime::cli::add_report_command(app, exit_status);
  kerntime::cli::add_run_command(app, exit_status);
  kerntime::cli::add_completion_command(app, exit_status);
  app.footer(
      "'kerntime help COMMAND' shows a command's options. 'kerntime completion bash' (or zsh) "
      "prints a shell completion script (docs/cli.md).");

  // Hidden: `kerntime --check-arguments COMMAND ...` parses the whole command line as CLI11
  // does (unknown options, values, required arguments) and exits 0 without running anything,
  // so that tests/docs can check every command the documentation shows on a machine without a
  // GPU. The top-level callback runs after parsing and before any subcommand's.
  bool check_arguments = false;
  app.add_flag("--check-arguments", check_arguments)->group("");
  app.parse_complete_callback([&check_arguments] {
    if (check_arguments) throw CLI::Success();
  });

  // Every message below is one line on standard error, whatever it quotes (write_error_line
  // escapes a line break in an option value), and writing it never ends the process.
  try {
    // `kerntime help [COMMAND]` is `kerntime [COMMAND] --help`.
    if (words.size() > 1 && words[1] == "help") {
      words = words.size() > 2 ? std::vector<std::string>{words[0], words[2], "--help"}
                               : std::vector<std::string>{words[0], "--help"};
    }
    // CLI11 would only say that a subcommand is required; name the word it did not know.
    std::size_t first_word = 1;
    while (first_word < words.size() && !words[first_word].empty() && words[first_word][0] == '-')
      ++first_word;
    if (first_word < words.size()) {
      const std::string& word = words[first_word];
      std::string names;
      std::vector<std::string> known;
      for (const CLI::App* command : app.get_subcommands({})) {
        known.push_back(command->get_name());
        if (command->get_group().empty()) continue;  // hidden (completion): not listed
        names += names.empty() ? command->get_name() : ", " + command->get_name();
      }
      if (std::find(known.begin(), known.end(), word) == known.end()) {
        const std::string near = kerntime::cli::closest(word, known);
        const std::string guess = near.empty() ? "; the" : "; did you mean '" + near + "'? The";
        kerntime::io::write_error_line("kerntime: ", "unknown command '" + word + "'" + guess +
                                                         " commands are " + names + ", and help.");
        return 2;
      }
    }
    // CLI11 parses the words from the last (its vector form), as from argv.
    std::vector<std::string> reversed(words.rbegin(), words.rend() - 1);
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return print_requested(app, e);
  } catch (const CLI::CallForAllHelp& e) {
    return print_requested(app, e);
  } catch (const CLI::CallForVersion& e) {
    return print_requested(app, e);
  } catch (const CLI::Success&) {
    try {
      kerntime::io::write_standard_output("kerntime: arguments accepted\n");
    } catch (const kerntime::Error& e) {
      kerntime::io::write_error_line("kerntime: ", e.what());
      return 2;
    }
    return 0;
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_option(app, words);
    kerntime::io::write_error_line(
        "kerntime: ", (unknown.empty() ? std::string{e.what()} + "." : unknown) +
                          " Run 'kerntime help' or 'kerntime help COMMAND' for usage.");
    return 2;
  } catch (const kerntime::Error& e) {
    kerntime::io::write_error_line("kerntime: ", e.what());
    return 2;
  } catch (const std::exception& e) {
    kerntime::io::write_error_line("kerntime: unexpected failure: ", e.what());
    return 2;
  }
  return exit_status;
}
