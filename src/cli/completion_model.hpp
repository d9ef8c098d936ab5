// SPDX-License-Identifier: Apache-2.0
// What a shell needs to complete a kerntime command line, read from the command's own CLI11
// definition: its commands, their options and arguments, and what each value completes to. The
// bash and zsh scripts (bash_completion.hpp, zsh_completion.hpp) are written from it, so that a
// new command or option is completed without anyone listing it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace kerntime::cli {

/// What a value completes to. An option's type name says it: FILE, DIR and PROGRAM (set with
/// type_name(), or CLI11's ExistingFile and ExistingDirectory checks); a set of words checked
/// with CLI::IsMember (or a CLI::Transform map's keys) gives the choices; anything else is free
/// text, which completes to nothing.
enum class ValueKind {
  none,       ///< a flag: no value
  text,       ///< free text (a number, a duration, a pattern)
  file,       ///< a path
  directory,  ///< a folder
  program,    ///< a program to run, then its arguments (files)
  choice,     ///< one of `choices`
};

struct CompletionValue {
  ValueKind kind = ValueKind::none;
  std::vector<std::string> choices;  ///< for ValueKind::choice, in the definition's order
  std::string name;                  ///< what the value is, in lower case: "file", "alpha"
};

struct CompletionOption {
  std::vector<std::string> names;  ///< with their dashes: long names first ("--output", "-o")
  std::string description;         ///< on one line
  CompletionValue value;           ///< kind none for a flag
  bool repeatable = false;         ///< may be given more than once (a vector option)
};

struct CompletionPositional {
  std::string name;
  std::string description;  ///< on one line
  CompletionValue value;
  bool required = false;
  bool many = false;  ///< takes every remaining argument (only the last one can)
};

struct CompletionCommand {
  std::string name;         ///< "" for the program itself
  std::string description;  ///< on one line
  std::vector<CompletionOption> options;
  std::vector<CompletionPositional> positionals;
};

struct CompletionModel {
  std::string program;  ///< the command's name: "kerntime"
  CompletionCommand top;
  std::vector<CompletionCommand> commands;  ///< in the definition's order, `help` last
};

/// The model of `app` and its subcommands (one level), hidden ones included; options in the
/// hidden group ("", such as --check-arguments) are left out. `kerntime help [COMMAND]`, which
/// main.cpp makes of `kerntime [COMMAND] --help`, is added as a command whose argument is one
/// of the others.
CompletionModel completion_model(const CLI::App& app);

/// The name of the completion function of both scripts: "_" and the program's name, each
/// character other than a letter, a digit or "_" made "_" ("_kerntime").
std::string completion_function(const CompletionModel& model);

/// `text` as one word of a POSIX shell, in single quotes: it's -> 'it'\''s'. Both scripts
/// quote every word they take from the definition so.
std::string single_quoted(std::string_view text);

/// `script` with each "@KEY@" that `values` names replaced by its value, in one pass from the
/// start: a value is never read again, whatever it holds. An @ that starts no known key stays.
std::string filled(std::string_view script,
                   const std::vector<std::pair<std::string_view, std::string>>& values);

}  // namespace kerntime::cli
