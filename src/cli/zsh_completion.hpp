// SPDX-License-Identifier: Apache-2.0
// The zsh completion script of a command, written from its model (completion_model.hpp).
#pragma once

#include <string>

#include "cli/completion_model.hpp"

namespace kerntime::cli {

/// A zsh completion function, _PROGRAM, in the form compinit reads from a folder of $fpath (a
/// "#compdef PROGRAM" first line; installed as _PROGRAM). Sourced instead (after compinit), it
/// registers itself with compdef. Through _arguments it completes the commands with their
/// descriptions, each command's options with theirs, the values of options (files, folders,
/// choices) and positional arguments (files, or a program and then that program's arguments).
std::string zsh_completion_script(const CompletionModel& model);

}  // namespace kerntime::cli
