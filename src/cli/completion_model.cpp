// SPDX-License-Identifier: Apache-2.0
#include "cli/completion_model.hpp"

#include <algorithm>
#include <cctype>

namespace kerntime::cli {
namespace {

// Whitespace runs (line breaks included) as one space, none at the ends.
std::string one_line(std::string_view text) {
  std::string line;
  bool space = false;
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      space = !line.empty();
      continue;
    }
    if (space) line += ' ';
    space = false;
    line += c;
  }
  return line;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// CLI11's full type name, split into its parts: the type ("TEXT", "FILE") and then each check's
// description (":{a,b,c}" for IsMember, ":FILE" for ExistingFile). A set's braces keep what is
// inside them one part, colons included.
std::vector<std::string> type_parts(const std::string& type_name) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (const char c : type_name) {
    if (c == ':' && depth == 0) {
      parts.emplace_back();
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}' && depth > 0) --depth;
    parts.back() += c;
  }
  return parts;
}

// A choice both shells can take as a bare word: in bash's compgen -W list and in zsh's
// _arguments action "(a b c)", where a space, a quote or a colon would change the meaning.
bool plain_word(const std::string& word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 ||
           std::string_view{"_.+-@%/="}.find(static_cast<char>(c)) != std::string_view::npos;
  });
}

// "{a,b,c}" (IsMember) or "{a->1,b->2}" (a Transform's map): the words, or none when the part
// is not a set or one of its words is not plain.
std::vector<std::string> set_words(const std::string& part) {
  if (part.size() < 2 || part.front() != '{' || part.back() != '}') return {};
  std::vector<std::string> words;
  const std::string inside = part.substr(1, part.size() - 2);
  for (std::size_t start = 0; start <= inside.size();) {
    std::size_t end = inside.find(',', start);
    if (end == std::string::npos) end = inside.size();
    std::string word = inside.substr(start, end - start);
    word = word.substr(0, word.find("->"));
    if (!plain_word(word)) return {};
    words.push_back(word);
    start = end + 1;
  }
  return words;
}

CompletionValue value_of(const CLI::Option& option, const std::string& name) {
  CompletionValue value;
  value.name = lower(name);
  if (option.get_items_expected_max() == 0) return value;  // a flag
  value.kind = ValueKind::text;
  const std::vector<std::string> parts = type_parts(option.get_type_name());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (part == "FILE" || part.rfind("PATH", 0) == 0) {
      value.kind = ValueKind::file;
    } else if (part == "DIR") {
      value.kind = ValueKind::directory;
    } else if (part == "PROGRAM" && i == 0) {
      value.kind = ValueKind::program;
    } else if (std::vector<std::string> words = set_words(part); !words.empty()) {
      value.kind = ValueKind::choice;
      value.choices = std::move(words);
    }
  }
  if (value.kind == ValueKind::file) value.name = "file";
  if (value.kind == ValueKind::directory) value.name = "directory";
  if (value.kind == ValueKind::program) value.name = "program";
  return value;
}

// Options and positional arguments of `app` and of its option groups (CLI11 makes a group an
// unnamed subcommand), into `command`.
void add_arguments(const CLI::App& app, CompletionCommand& command) {
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) continue;  // hidden
    if (option->nonpositional()) {
      CompletionOption entry;
      for (const std::string& name : option->get_lnames())
        entry.names.push_back("--" + name);
      for (const std::string& name : option->get_snames())
        entry.names.push_back("-" + name);
      entry.description = one_line(option->get_description());
      entry.value = value_of(*option, option->get_single_name());
      entry.repeatable = entry.value.kind != ValueKind::none && option->get_expected_max() > 1;
      command.options.push_back(std::move(entry));
    }
    if (option->get_positional()) {
      CompletionPositional entry;
      entry.name = option->get_single_name();
      entry.description = one_line(option->get_description());
      entry.value = value_of(*option, entry.name);
      entry.required = option->get_required();
      entry.many = option->get_items_expected_max() > 1;
      command.positionals.push_back(std::move(entry));
    }
  }
  for (const CLI::App* group : app.get_subcommands({})) {
    if (group->get_name().empty()) add_arguments(*group, command);
  }
}

}  // namespace

CompletionModel completion_model(const CLI::App& app) {
  CompletionModel model;
  model.program = app.get_name();
  model.top.description = one_line(app.get_description());
  add_arguments(app, model.top);
  CompletionValue names{ValueKind::choice, {}, "command"};
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name().empty()) continue;  // an option group, read above
    CompletionCommand command;
    command.name = sub->get_name();
    command.description = one_line(sub->get_description());
    add_arguments(*sub, command);
    model.commands.push_back(std::move(command));
    names.choices.push_back(sub->get_name());
  }
  const bool has_help = std::any_of(model.commands.begin(), model.commands.end(),
                                    [](const CompletionCommand& c) { return c.name == "help"; });
  if (!has_help) {
    CompletionCommand help;
    help.name = "help";
    help.description = "Show the options of " + model.program + " or of COMMAND";
    help.positionals.push_back({"command", "A command", names, false, false});
    model.commands.push_back(std::move(help));
  }
  return model;
}

std::string completion_function(const CompletionModel& model) {
  std::string name = "_" + model.program;
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
  }
  return name;
}

std::string single_quoted(std::string_view text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string filled(std::string_view script,
                   const std::vector<std::pair<std::string_view, std::string>>& values) {
  std::string text;
  std::size_t at = 0;
  while (at < script.size()) {
    const std::size_t key = script.find('@', at);
    if (key == std::string_view::npos) break;
    text += script.substr(at, key - at);
    const auto known = std::find_if(values.begin(), values.end(), [&](const auto& value) {
      return script.compare(key, value.first.size(), value.first) == 0;
    });
    if (known == values.end()) {
      text += '@';
      at = key + 1;
    } else {
      text += known->second;
      at = key + known->first.size();
    }
  }
  text += script.substr(std::min(at, script.size()));
  return text;
}

}  // namespace kerntime::cli
