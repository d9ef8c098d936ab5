// SPDX-License-Identifier: Apache-2.0
#include "cli/bash_completion.hpp"

#include <string_view>
#include <vector>

namespace kerntime::cli {
namespace {

// A value's kind as the script's helpers pass it around: '' (none), text, file, directory,
// program or choice:WORD...
std::string kind_word(const CompletionValue& value) {
  switch (value.kind) {
    case ValueKind::none:
      return "";
    case ValueKind::text:
      return "text";
    case ValueKind::file:
      return "file";
    case ValueKind::directory:
      return "directory";
    case ValueKind::program:
      return "program";
    case ValueKind::choice: {
      std::string word = "choice:";
      for (std::size_t i = 0; i < value.choices.size(); ++i)
        word += (i == 0 ? "" : " ") + value.choices[i];
      return word;
    }
  }
  return "";
}

std::string joined_names(const std::vector<CompletionOption>& options) {
  std::string names;
  for (const CompletionOption& option : options) {
    for (const std::string& name : option.names)
      names += (names.empty() ? "" : " ") + name;
  }
  return names;
}

// One line of a `case` table: "    'PATTERN'REST) REPLY='VALUE' ;;".
std::string case_line(std::string_view pattern, std::string_view rest, std::string_view value) {
  return "    " + single_quoted(pattern) + std::string{rest} + ") REPLY=" + single_quoted(value) +
         " ;;\n";
}

std::string options_table(const CompletionModel& model) {
  std::string table = case_line("", "", joined_names(model.top.options));
  for (const CompletionCommand& command : model.commands)
    table += case_line(command.name, "", joined_names(command.options));
  return table;
}

std::string values_table(const CompletionModel& model) {
  std::string table;
  const auto add = [&table](const CompletionCommand& command) {
    for (const CompletionOption& option : command.options) {
      if (option.value.kind == ValueKind::none) continue;
      for (const std::string& name : option.names)
        table += case_line(command.name + " " + name, "", kind_word(option.value));
    }
  };
  add(model.top);
  for (const CompletionCommand& command : model.commands)
    add(command);
  return table;
}

// By position from 0; a positional that takes every remaining argument matches any later
// position ('report '*), after the earlier ones. A program is followed by its arguments.
std::string positionals_table(const CompletionModel& model) {
  std::string table;
  for (const CompletionCommand& command : model.commands) {
    for (std::size_t i = 0; i < command.positionals.size(); ++i) {
      const CompletionPositional& positional = command.positionals[i];
      const std::string prefix = command.name + " ";
      if (positional.many && positional.value.kind == ValueKind::program) {
        table += case_line(prefix + std::to_string(i), "", "program");
        table += case_line(prefix, "*", "file");
      } else if (positional.many) {
        table += case_line(prefix, "*", kind_word(positional.value));
      } else {
        table += case_line(prefix + std::to_string(i), "", kind_word(positional.value));
      }
      if (positional.many) break;
    }
  }
  return table;
}

std::string command_names(const CompletionModel& model) {
  std::string names;
  for (const CompletionCommand& command : model.commands)
    names += (names.empty() ? "" : " ") + command.name;
  return names;
}

// The script, with @F@ for the completion function, @NAME@ for the program (@P@ quoted),
// @COMMANDS@ for the quoted command names and @OPTIONS@, @VALUES@ and @POSITIONALS@ for the
// tables.
constexpr std::string_view kScript =
    R"(# bash completion for @NAME@, generated from its command-line definition by
# '@NAME@ completion bash'. Generate it again rather than editing it.

# @F@_options COMMAND: the options of COMMAND ('' for @NAME@ itself), in REPLY.
@F@_options() {
  case $1 in
@OPTIONS@    *) REPLY='' ;;
  esac
}

# @F@_value COMMAND OPTION: what the value of COMMAND's OPTION completes to, in REPLY:
# text (nothing to offer), file, directory, program or choice:WORD...; '' for a flag.
@F@_value() {
  case "$1 $2" in
@VALUES@    *) REPLY='' ;;
  esac
}

# @F@_positional COMMAND N: what COMMAND's argument N (from 0) completes to, in REPLY, as
# @F@_value says; '' past the last one.
@F@_positional() {
  case "$1 $2" in
@POSITIONALS@    *) REPLY='' ;;
  esac
}

# @F@_reply KIND WORD: COMPREPLY for WORD, a value of KIND (see @F@_value).
@F@_reply() {
  case $1 in
    file)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$2") ;;
    directory)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -d -- "$2") ;;
    program) mapfile -t COMPREPLY < <(compgen -c -- "$2" | sort -u) ;;
    choice:*) mapfile -t COMPREPLY < <(compgen -W "${1#choice:}" -- "$2") ;;
    *) COMPREPLY=() ;;
  esac
}

@F@() {
  local cur=${COMP_WORDS[COMP_CWORD]} command='' value='' position=0 dashes=0 i word REPLY
  COMPREPLY=()
  # The words before the one being completed: the command, options with their values, and
  # arguments, counted. Where COMP_WORDBREAKS holds '=', --option=VALUE is three words.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ -n $value ]]; then
      [[ $word == = ]] || value=''
    elif ((dashes)) || [[ $word != -* || $word == - ]]; then
      if [[ -z $command ]]; then command=$word; else position=$((position + 1)); fi
    elif [[ $word == -- ]]; then
      dashes=1
    elif [[ $word != *=* ]]; then
      @F@_value "$command" "$word"
      value=$REPLY
    fi
  done
  if [[ -n $value ]]; then
    [[ $cur == = ]] && cur=''
    @F@_reply "$value" "$cur"
  elif ((!dashes)) && [[ $cur == --?*=* ]]; then
    # --option=VALUE as one word: the value completes, the option stays.
    @F@_value "$command" "${cur%%=*}"
    @F@_reply "$REPLY" "${cur#*=}"
    for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${cur%%=*}=${COMPREPLY[i]}; done
  elif ((!dashes)) && [[ $cur == -* ]]; then
    @F@_options "$command"
    mapfile -t COMPREPLY < <(compgen -W "$REPLY" -- "$cur")
  elif [[ -z $command ]]; then
    mapfile -t COMPREPLY < <(compgen -W @COMMANDS@ -- "$cur")
  else
    @F@_positional "$command" "$position"
    if [[ -n $REPLY ]]; then
      @F@_reply "$REPLY" "$cur"
    elif ((!dashes)); then
      @F@_options "$command"
      mapfile -t COMPREPLY < <(compgen -W "$REPLY" -- "$cur")
    fi
  fi
}

complete -F @F@ @P@
)";

}  // namespace

std::string bash_completion_script(const CompletionModel& model) {
  return filled(kScript, {{"@OPTIONS@", options_table(model)},
                          {"@VALUES@", values_table(model)},
                          {"@POSITIONALS@", positionals_table(model)},
                          {"@COMMANDS@", single_quoted(command_names(model))},
                          {"@F@", completion_function(model)},
                          {"@P@", single_quoted(model.program)},
                          {"@NAME@", model.program}});
}

}  // namespace kerntime::cli
