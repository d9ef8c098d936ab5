// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <exception>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <kerntime/error.hpp>
#include <kerntime/version.hpp>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"kerntime: measure CUDA kernels as GPU time, not enqueue time.", "kerntime"};
  app.require_subcommand(1);
  app.set_version_flag("--version", kerntime::kVersion);

  int exit_status = 0;
  kerntime::cli::add_info_command(app, exit_status);
  kerntime::cli::add_compare_command(app, exit_status);
  kerntime::cli::add_report_command(app, exit_status);
  kerntime::cli::add_run_command(app, exit_status);

  // Hidden: `kerntime --check-arguments COMMAND ...` parses the whole command line as CLI11
  // does (unknown options, values, required arguments) and exits 0 without running anything,
  // so that tests/docs can check every command the documentation shows on a machine without a
  // GPU. The top-level callback runs after parsing and before any subcommand's.
  bool check_arguments = false;
  app.add_flag("--check-arguments", check_arguments)->group("");
  app.parse_complete_callback([&check_arguments] {
    if (check_arguments) throw CLI::Success();
  });

  // CLI11 would only say that a subcommand is required; name the word it did not know.
  int first_word = 1;
  while (first_word < argc && argv[first_word][0] == '-')
    ++first_word;
  if (first_word < argc) {
    const std::string word = argv[first_word];
    std::string names;
    bool known = false;
    for (const CLI::App* command : app.get_subcommands({})) {
      known = known || command->get_name() == word;
      names += names.empty() ? command->get_name() : ", " + command->get_name();
    }
    if (!known) {
      fmt::print(stderr, "kerntime: unknown command '{}'; the commands are {}.\n", word, names);
      return 2;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::Success&) {
    fmt::print("kerntime: arguments accepted\n");
    return 0;
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "kerntime: {}. Run 'kerntime --help' for usage.\n", e.what());
    return 2;
  } catch (const kerntime::Error& e) {
    fmt::print(stderr, "kerntime: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "kerntime: unexpected failure: {}\n", e.what());
    return 2;
  }
  return exit_status;
}
