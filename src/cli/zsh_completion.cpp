// SPDX-License-Identifier: Apache-2.0
#include "cli/zsh_completion.hpp"

#include <cctype>
#include <string_view>
#include <vector>

namespace kerntime::cli {
namespace {

// `text` with a backslash before each of `special` and before each backslash, as _arguments
// reads an explanation ("[...]": ']' ends it) and a message (':' ends it).
std::string escaped(std::string_view text, std::string_view special) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || special.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string action(const CompletionValue& value) {
  switch (value.kind) {
    case ValueKind::none:
    case ValueKind::text:
      return " ";  // the message alone: nothing to offer
    case ValueKind::file:
      return "_files";
    case ValueKind::directory:
      return "_files -/";
    case ValueKind::program:
      return "_command_names -e";
    case ValueKind::choice: {
      std::string words = "(";
      for (std::size_t i = 0; i < value.choices.size(); ++i)
        words += (i == 0 ? "" : " ") + value.choices[i];
      return words + ")";
    }
  }
  return " ";
}

// One _arguments spec per name of the option: "(-o --output)--output=[explanation]:file:_files".
// Names of one option exclude each other unless it may be repeated ("*--threshold=...").
std::vector<std::string> option_specs(const CompletionOption& option) {
  std::vector<std::string> specs;
  std::string exclusions;
  if (option.repeatable) {
    exclusions = "*";
  } else if (option.names.size() > 1) {
    for (const std::string& name : option.names)
      exclusions += (exclusions.empty() ? "(" : " ") + name;
    exclusions += ")";
  }
  const bool takes_value = option.value.kind != ValueKind::none;
  for (const std::string& name : option.names) {
    // --name=: the value in the next word or after '='; -n+: in the next word or the same one.
    const std::string form = !takes_value ? "" : name.rfind("--", 0) == 0 ? "=" : "+";
    std::string spec = exclusions + name + form + "[" + escaped(option.description, "[]") + "]";
    if (takes_value) spec += ":" + escaped(option.value.name, ":") + ":" + action(option.value);
    specs.push_back(spec);
  }
  return specs;
}

// "1:baseline:_files", "2::name:action" when optional, "*:files:_files" for all the rest, and
// "*::command:_kerntime_program" for a program and its arguments (the script's function).
std::string positional_spec(const CompletionModel& model, const CompletionPositional& positional,
                            std::size_t index) {
  const std::string message = escaped(positional.name, ":");
  if (positional.many && positional.value.kind == ValueKind::program) {
    return "*::" + message + ":" + completion_function(model) + "_program";
  }
  const std::string where = positional.many ? "*" : std::to_string(index + 1);
  return where + (positional.required ? ":" : "::") + message + ":" + action(positional.value);
}

std::vector<std::string> specs_of(const CompletionModel& model, const CompletionCommand& command) {
  std::vector<std::string> specs;
  for (const CompletionOption& option : command.options) {
    for (std::string& spec : option_specs(option))
      specs.push_back(std::move(spec));
  }
  for (std::size_t i = 0; i < command.positionals.size(); ++i) {
    specs.push_back(positional_spec(model, command.positionals[i], i));
    if (command.positionals[i].many) break;
  }
  return specs;
}

// The specs as _arguments' arguments, one quoted spec a line after `lead`.
std::string arguments_call(const std::vector<std::string>& specs, std::string_view lead) {
  std::string call = std::string{lead};
  for (const std::string& spec : specs)
    call += " \\\n    " + single_quoted(spec);
  return call;
}

std::string function_of(const CompletionModel& model, const CompletionCommand& command) {
  std::string name = completion_function(model) + "_command_";
  for (const char c : command.name)
    name += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  return name;
}

std::string command_functions(const CompletionModel& model) {
  std::string text;
  for (const CompletionCommand& command : model.commands) {
    const std::vector<std::string> specs = specs_of(model, command);
    text += "# " + model.program + " " + command.name + "\n" + function_of(model, command) +
            "() {\n  " + (specs.empty() ? "return 1" : arguments_call(specs, "_arguments -s -S")) +
            "\n}\n\n";
  }
  return text;
}

std::string command_descriptions(const CompletionModel& model) {
  std::string text;
  for (const CompletionCommand& command : model.commands)
    text += "    " + single_quoted(escaped(command.name, ":") + ":" + command.description) + "\n";
  return text;
}

std::string command_cases(const CompletionModel& model) {
  std::string text;
  for (const CompletionCommand& command : model.commands) {
    text += "      (" + single_quoted(command.name) + ") " + function_of(model, command) +
            " && ret=0 ;;\n";
  }
  return text;
}

// @F@ the completion function, @NAME@ the program (@P@ quoted); the tables as named.
constexpr std::string_view kScript = R"(#compdef @NAME@
# zsh completion for @NAME@, generated from its command-line definition by
# '@NAME@ completion zsh'. Generate it again rather than editing it.

# The commands with their descriptions.
@F@_commands() {
  local -a commands
  commands=(
@DESCRIPTIONS@  )
  _describe -t commands '@NAME@ command' commands
}

# A program and its arguments, completed as the program's own command line. _arguments -S leaves
# a -- that comes first after the command in $words.
@F@_program() {
  if [[ $words[1] == -- ]]; then
    shift words
    (( CURRENT-- ))
  fi
  _normal
}

@FUNCTIONS@@F@() {
  local curcontext=$curcontext state state_descr line ret=1
  typeset -A opt_args
  @TOP@ && ret=0
  if [[ $state == argument ]]; then
    curcontext=${curcontext%:*:*}:@NAME@-$words[1]:
    case $words[1] in
@CASES@    esac
  fi
  return ret
}

# From a folder of $fpath, compinit made this file the body of @F@; sourced, it registers.
if [[ $funcstack[1] == @F@ ]]; then
  @F@ "$@"
elif (( $+functions[compdef] )); then
  compdef @F@ @P@
else
  print -u2 "@NAME@ completion: run 'autoload -Uz compinit && compinit' first"
fi
)";

}  // namespace

std::string zsh_completion_script(const CompletionModel& model) {
  std::vector<std::string> top = specs_of(model, model.top);
  top.push_back("1:command:" + completion_function(model) + "_commands");
  top.push_back("*::argument:->argument");
  return filled(kScript, {{"@DESCRIPTIONS@", command_descriptions(model)},
                          {"@FUNCTIONS@", command_functions(model)},
                          {"@TOP@", arguments_call(top, "_arguments -C -s")},
                          {"@CASES@", command_cases(model)},
                          {"@F@", completion_function(model)},
                          {"@P@", single_quoted(model.program)},
                          {"@NAME@", model.program}});
}

}  // namespace kerntime::cli
