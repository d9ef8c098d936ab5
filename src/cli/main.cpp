// SPDX-License-Identifier: Apache-2.0
#include <exception>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include <kerntime/error.hpp>
#include <kerntime/version.hpp>

#include "cli/commands.hpp"
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

}  // namespace

int main(int argc, char** argv) {
  kerntime::cli::hold_closed_standard_descriptors();
  CLI::App app{"kerntime: measure CUDA kernels as GPU time, not enqueue time.", "kerntime"};
  app.require_subcommand(1);
  app.set_version_flag("--version", [] { return kerntime::cli::version_text(); });

  int exit_status = 0;
  kerntime::cli::add_info_command(app, exit_status);
  kerntime::cli::add_calibrate_command(app, exit_status);
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

  // Every message below is one line on standard error, whatever it quotes (write_error_line
  // escapes a line break in an option value), and writing it never ends the process.
  try {
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
        kerntime::io::write_error_line(
            "kerntime: ", "unknown command '" + word + "'; the commands are " + names + ".");
        return 2;
      }
    }
    app.parse(argc, argv);
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
    kerntime::io::write_error_line("kerntime: ",
                                   std::string{e.what()} + ". Run 'kerntime --help' for usage.");
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
