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

  // CLI11 would only say that a subcommand is required; name the word it did not know.
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* command : app.get_subcommands({})) {
      known = known || command->get_name() == argv[1];
      names += names.empty() ? command->get_name() : ", " + command->get_name();
    }
    if (!known) {
      fmt::print(stderr, "kerntime: unknown command '{}'; the commands are {}.\n", argv[1], names);
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
