// SPDX-License-Identifier: Apache-2.0
// `kerntime completion bash|zsh`: prints the shell's completion script, written from the
// command's own definition (completion_model.hpp), so that it completes every command and
// option this build has. Hidden from the command list; the top-level help's footer names it.
// The build writes both scripts with it, and the install puts them where the shells look
// (src/cli/CMakeLists.txt, cmake/Install.cmake).
#include <memory>
#include <string>

#include "cli/bash_completion.hpp"
#include "cli/commands.hpp"
#include "cli/completion_model.hpp"
#include "cli/zsh_completion.hpp"
#include "io/file_writer.hpp"

namespace kerntime::cli {
namespace {

constexpr const char* kFooter =
    R"(bash: source <(kerntime completion bash), in ~/.bashrc for every shell.
zsh: source <(kerntime completion zsh) after compinit in ~/.zshrc, or save the script as
_kerntime in a folder of $fpath. An installed kerntime has both where the shells look:
share/bash-completion/completions/kerntime and share/zsh/site-functions/_kerntime.
See docs/cli.md.)";

struct CompletionSettings {
  std::string shell;
  std::string output;
};

}  // namespace

void add_completion_command(CLI::App& app, int& exit_status) {
  auto settings = std::make_shared<CompletionSettings>();
  CLI::App* command =
      app.add_subcommand("completion", "Print the bash or zsh completion script of kerntime");
  command->group("");
  command->footer(kFooter);
  command->add_option("shell", settings->shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  command->add_option("-o,--output", settings->output, "Write the script to FILE (- for stdout)")
      ->type_name("FILE");
  // The whole definition is known by the time a command's callback runs: after parsing.
  command->callback([&app, settings, &exit_status] {
    const CompletionModel model = completion_model(app);
    const std::string script =
        settings->shell == "zsh" ? zsh_completion_script(model) : bash_completion_script(model);
    if (settings->output.empty() || settings->output == "-") {
      io::write_standard_output(script);
    } else {
      io::write_file_atomically(settings->output, script);
    }
    exit_status = 0;
  });
}

}  // namespace kerntime::cli
