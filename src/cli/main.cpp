// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <exception>

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
