// SPDX-License-Identifier: Apache-2.0
// The bash completion script of a command, written from its model (completion_model.hpp).
#pragma once

#include <string>

#include "cli/completion_model.hpp"

namespace kerntime::cli {

/// A bash script that defines _PROGRAM (and helpers named _PROGRAM_*) and registers it with
/// `complete -F` for the program. It completes the commands, each command's options, the value
/// of an option that takes one (files, folders, choices; nothing for free text, also after
/// --option= ) and positional arguments (files, or a program and then its arguments' files).
/// It needs bash 4 and nothing else; bash-completion loads it by the program's name.
std::string bash_completion_script(const CompletionModel& model);

}  // namespace kerntime::cli
