# SPDX-License-Identifier: Apache-2.0
"""Finds the commands that README.md and docs/*.md show, and checks that each still parses.

A command is checked by what it runs:
- `kerntime ...` (any path ending in /kerntime): `kerntime --check-arguments ...` parses the
  whole command line as the command does and runs nothing; it must exit 0.
- the benchmark runner (`sample_benchmarks`, or a user's KERNTIME_BENCHMARK_MAIN() program of
  RUNNER_PROGRAMS): the built sample_benchmarks with the same options plus `--list`, which
  parses every option, applies --filter and --axis, lists and exits without a GPU.
- `cmake --workflow/--preset/--build --preset X`, `ctest --preset X`: the preset exists in
  CMakePresets.json; `--target T`: a target of this repository; `ctest -R PATTERN`: a test of
  this build (or a user's test pattern in USER_TEST_PATTERNS); `--test-dir build/P`: a preset's
  binary directory.
- `build/<preset>/<dir>/<program>`: the preset exists and <dir>/CMakeLists.txt makes <program>.
- `bash <script>`: the script exists.
Any other program in a shell block must be on ALLOWED_PROGRAMS, so that a new kind of command
is either checked here or consciously let through.

Where commands are found: every line of ```sh/bash/shell/console blocks; lines of unlabelled
blocks (mostly program output) that start with `$ ` or with a known program; `run:` steps of
```yaml blocks (GitHub Actions) and the items of their `script:`, `before_script:` and
`after_script:` lists (GitLab CI); `sh '...'` steps of ```groovy blocks (Jenkins); inline code
spans that start with a known program. A `kerntime SUBCOMMAND`
line followed by `[--option ...]` lines is a synopsis: each option must exist in the
subcommand's --help.
"""

import json
import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field

# Programs that are not kerntime's and need no check: the docs use them around kerntime's.
ALLOWED_PROGRAMS = {
    "cd", "cp", "echo", "git", "grep", "mkdir", "nvidia-smi", "pip", "python", "python3", "true",
    # the wheel's repair step (docs/python.md)
    "auditwheel",
    # a user's program that times with Session and writes its own report (docs/ci.md)
    "./build/my_app", "./my_app",
    # shell syntax of a loop (`for i in 1 2 3; do ...; done`)
    "for", "done",
}
# Profilers that run a program given after their own options: the program is checked.
PROFILER_WRAPPERS = {"ncu", "nsys", "compute-sanitizer"}
# User programs made with KERNTIME_BENCHMARK_MAIN(): they take the runner's options.
RUNNER_PROGRAMS = {"sample_benchmarks", "my_bench", "my_benchmarks"}
# ctest -R patterns that name a user's tests (kerntime_add_regression_test in docs/ci.md).
USER_TEST_PATTERNS = {"perf_"}
# Words that only prefix the command that follows.
PREFIX_WORDS = {"time", "do", "then", "exec", "sudo", "!"}
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}
KNOWN_PROGRAMS = {"kerntime", "cmake", "ctest", "bash"} | RUNNER_PROGRAMS
OPERATORS = {"&&", "||", ";", "|", "&"}
REDIRECTIONS = {">", ">>", "<", "2>", "2>>", "&>"}


@dataclass
class Command:
    source: str  # file:line
    text: str  # as shown, continuations joined
    kind: str = "command"  # "command", "inline" or "synopsis"
    words: list = field(default_factory=list)  # one simple command's words

    def where(self):
        return f"{self.source}: `{self.text}`"


def _is_env_assignment(word):
    return re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word) is not None


def _program_name(word):
    return word.rsplit("/", 1)[-1]


def _is_known_program(word):
    name = _program_name(word)
    return (name in KNOWN_PROGRAMS or word in ALLOWED_PROGRAMS or name in ALLOWED_PROGRAMS
            or re.match(r"^\.?/?build/", word) is not None)


def split_simple_commands(text):
    """Splits a shell line at && || ; | into simple commands: lists of words, redirections,
    comments, environment assignments and prefix words removed. Placeholders such as
    <that report> stay one word."""
    text = re.sub(r"<[^<>]+>", lambda m: "PLACEHOLDER", text)
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    words = list(lexer)
    commands, current, skip_next = [], [], False
    for word in words:
        if skip_next:
            skip_next = False
            continue
        if word in OPERATORS:
            if current:
                commands.append(current)
            current = []
        elif word in REDIRECTIONS or re.match(r"^[0-9]?[<>]+&?[0-9]*$", word):
            skip_next = not word.endswith("&1")
        else:
            current.append(word)
    if current:
        commands.append(current)
    simple = []
    for command in commands:
        while command and (_is_env_assignment(command[0]) or command[0] in PREFIX_WORDS):
            command = command[1:]
        if command:
            simple.append(command)
    return simple


def _join_continuations(lines):
    """(line number, text) pairs with backslash continuations joined onto their first line."""
    joined, pending, start = [], "", 0
    for number, line in lines:
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        joined.append((start, pending + line))
        pending = ""
    if pending:
        joined.append((start, pending))
    return joined


def _synopsis_options(lines):
    options = set()
    for _, line in lines:
        # The options of a synopsis line stand inside [ ]; the rest of the line describes them.
        for group in re.findall(r"\[([^\]]*)\]", line):
            options.update(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", group))
    return sorted(options)


def _commands_of_line(source, text, kind="command"):
    result = []
    stripped = text.strip()
    comment = re.match(r"^#\s*or:\s*(.*)$", stripped)
    if comment:  # "# or: <another command>" shows a command too
        stripped = comment.group(1)
    for words in split_simple_commands(stripped):
        result.append(Command(source, stripped, kind, words))
    return result


def _looks_like_command(line):
    """For unlabelled blocks, which mostly hold output: a line that starts with a known program
    and, for kerntime, a subcommand-like word or an option (not `kerntime 0.1.0, host ...`)."""
    if line.startswith("$ "):
        return True
    line = re.sub(r"^#\s*or:\s*", "", line)
    words = line.split()
    if not words:
        return False
    start = 0
    while start < len(words) and (_is_env_assignment(words[start]) or words[start] in PREFIX_WORDS):
        start += 1
    if start >= len(words) or not _is_known_program(words[start]):
        return False
    following = words[start + 1] if start + 1 < len(words) else ""
    return following == "" or re.match(r"^(-|[a-z][a-z_-]*$|\S+\.(json|xml|md)$)", following) is not None


def extract(markdown, name):
    """Every command that the Markdown text shows, as Command objects."""
    commands = []
    lines = markdown.split("\n")
    in_block, language, block = False, "", []

    def flush_block():
        numbered = _join_continuations(block)
        if language == "yaml":
            _extract_yaml(numbered)
            _extract_gitlab_scripts(numbered)
            return
        if language == "groovy":
            _extract_jenkins_steps(numbered)
            return
        i = 0
        while i < len(numbered):
            number, line = numbered[i]
            source = f"{name}:{number}"
            text = line.strip()
            if language not in SHELL_LANGUAGES:
                if not _looks_like_command(text):
                    i += 1
                    continue
            if text.startswith("$ "):
                text = text[2:]
            if not text or (text.startswith("#") and not re.match(r"^#\s*or:", text)):
                i += 1
                continue
            # A synopsis: `kerntime SUB ...` then lines of [--options].
            following = []
            j = i + 1
            while j < len(numbered) and numbered[j][1].strip().startswith("["):
                following.append(numbered[j])
                j += 1
            words = text.split()
            if following and _program_name(words[0]) == "kerntime" and len(words) > 1:
                commands.append(Command(source, text, "synopsis",
                                        [words[0], words[1]] + _synopsis_options(following)))
                i = j
                continue
            commands.extend(_commands_of_line(source, text))
            i += 1

    def _extract_yaml(numbered):
        i = 0
        while i < len(numbered):
            number, line = numbered[i]
            match = re.match(r"^(\s*)(?:-\s+)?run:\s*(.*)$", line)
            if not match:
                i += 1
                continue
            indent, rest = len(match.group(1)), match.group(2).strip()
            if rest and rest != "|":
                commands.extend(_commands_of_line(f"{name}:{number}", rest))
                i += 1
                continue
            i += 1
            while i < len(numbered) and (not numbered[i][1].strip()
                                         or len(numbered[i][1]) - len(numbered[i][1].lstrip())
                                         > indent):
                if numbered[i][1].strip():
                    commands.extend(_commands_of_line(f"{name}:{numbered[i][0]}", numbered[i][1]))
                i += 1

    def _extract_gitlab_scripts(numbered):
        i = 0
        while i < len(numbered):
            number, line = numbered[i]
            match = re.match(r"^(\s*)(?:before_|after_)?script:\s*$", line)
            i += 1
            if not match:
                continue
            indent = len(match.group(1))
            while i < len(numbered) and (not numbered[i][1].strip()
                                         or len(numbered[i][1]) - len(numbered[i][1].lstrip())
                                         > indent):
                item = re.match(r"^\s*-\s+(.*)$", numbered[i][1])
                if item:
                    commands.extend(_commands_of_line(f"{name}:{numbered[i][0]}", item.group(1)))
                i += 1

    def _extract_jenkins_steps(numbered):
        for number, line in numbered:
            match = re.match(r"""^\s*sh\s+(['"])(.*)\1\s*$""", line)
            if match:
                commands.extend(_commands_of_line(f"{name}:{number}", match.group(2)))

    for number, line in enumerate(lines, 1):
        fence = re.match(r"^\s*```(\S*)", line)
        if fence:
            if not in_block:
                in_block, language, block = True, fence.group(1).lower(), []
            else:
                flush_block()
                in_block = False
            continue
        if in_block:
            block.append((number, line))
            continue
        for span in re.findall(r"`([^`]+)`", line):
            words = span.split()
            start = 0
            while start < len(words) and _is_env_assignment(words[start]):
                start += 1
            if start < len(words) and _program_name(words[start]) in KNOWN_PROGRAMS - {"bash"}:
                if len(words) == start + 1:
                    continue  # a program's name in prose, not a command
                commands.extend(_commands_of_line(f"{name}:{number}", span, "inline"))
    return commands


class Checker:
    """Checks commands against the built programs and the repository."""

    def __init__(self, kerntime, runner, source_dir, build_dir):
        self.kerntime = kerntime
        self.runner = runner
        self.source_dir = source_dir
        self.build_dir = build_dir
        with open(os.path.join(source_dir, "CMakePresets.json"), encoding="utf-8") as f:
            presets = json.load(f)
        self.presets = {kind: {p["name"] for p in presets.get(kind + "Presets", [])}
                        for kind in ("configure", "build", "test", "workflow")}
        self.targets, self.targets_by_dir = self._targets()
        self._help = {}
        self._tests = {}

    def _targets(self):
        names, by_dir = set(), {}
        pattern = re.compile(r"\b(?:add_executable|add_library|add_custom_target|kerntime_add_test)"
                             r"\(\s*([A-Za-z0-9_.:+-]+)")
        output = re.compile(r"set_target_properties\(\s*\S+\s+PROPERTIES[^)]*OUTPUT_NAME\s+(\S+)")
        for root, dirs, files in os.walk(self.source_dir):
            dirs[:] = [d for d in dirs if d not in {"build", ".git"} and not d.startswith("build")]
            for file in files:
                if file != "CMakeLists.txt" and not file.endswith(".cmake"):
                    continue
                with open(os.path.join(root, file), encoding="utf-8") as f:
                    text = f.read()
                found = set(pattern.findall(text)) | set(output.findall(text))
                names |= found
                relative = os.path.relpath(root, self.source_dir)
                by_dir.setdefault(relative, set()).update(found)
        return names, by_dir

    def _run(self, argv):
        result = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        return result.returncode, (result.stdout + result.stderr).strip()

    def check(self, command):
        """None when the command is fine, else why not."""
        words = command.words
        program = words[0]
        name = _program_name(program)
        if name in PROFILER_WRAPPERS:
            inner = next((i for i, w in enumerate(words) if i > 0 and _is_known_program(w)), None)
            if inner is None:
                return f"{name} runs no program this repository builds or documents"
            return self.check(Command(command.source, command.text, command.kind, words[inner:]))
        if program.startswith(("build/", "./build/")):
            problem = self._check_build_path(program, name)
            if problem:
                return problem
        if command.kind == "synopsis":
            return self._check_synopsis(words[1], words[2:])
        if name == "kerntime":
            return self._check_kerntime(words[1:])
        if name in RUNNER_PROGRAMS:
            return self._check_runner(words[1:])
        if name == "cmake":
            return self._check_cmake(words[1:])
        if name == "ctest":
            return self._check_ctest(words[1:])
        if name == "bash":
            script = next((w for w in words[1:] if not w.startswith("-")), None)
            if script is None or not os.path.isfile(os.path.join(self.source_dir, script)):
                return f"bash runs {script}, which is not a file of this repository"
            return None
        if program.startswith(("build/", "./build/")):
            return None  # a program this repository builds, found above
        if program in ALLOWED_PROGRAMS or name in ALLOWED_PROGRAMS:
            return None
        return (f"'{program}' is neither a kerntime command nor on the allow-list of "
                "tests/docs/doc_commands.py: check it there, or allow it")

    def _check_build_path(self, program, name):
        parts = program.lstrip("./").split("/")
        if len(parts) < 3:
            return None
        preset, rest = parts[1], parts[2:]
        if name in RUNNER_PROGRAMS - {"sample_benchmarks"}:
            return None  # a user's program in the user's own build tree
        if preset not in self.presets["configure"]:
            return f"build/{preset} is not the binary directory of a configure preset"
        if rest[:1] == ["_deps"] and len(rest) > 1 and rest[1] == "kerntime-build":
            rest = rest[2:]  # kerntime added with FetchContent: its binary directory
        directory = "/".join(rest[:-1]) or "."
        if name not in self.targets_by_dir.get(directory, set()):
            return f"{directory}/CMakeLists.txt makes no program '{name}'"
        return None

    def _check_kerntime(self, arguments):
        code, output = self._run([self.kerntime, "--check-arguments"] + arguments)
        if code != 0:
            if len(arguments) == 1 and not arguments[0].startswith("-"):
                # `kerntime run` named in prose: the subcommand must exist.
                code, output = self._run([self.kerntime, arguments[0], "--help"])
                if code == 0:
                    return None
            return f"kerntime does not accept it (exit status {code}): {output}"
        return None

    def _check_synopsis(self, subcommand, options):
        if subcommand not in self._help:
            self._help[subcommand] = self._run([self.kerntime, subcommand, "--help"])
        code, text = self._help[subcommand]
        if code != 0:
            return f"'kerntime {subcommand} --help' fails (exit status {code}): {text}"
        known = set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", text))
        missing = [o for o in options if o not in known]
        if missing:
            return f"kerntime {subcommand} has no option {', '.join(missing)}"
        return None

    def _check_runner(self, arguments):
        code, output = self._run([self.runner] + arguments + ["--list"])
        if code != 0:
            return f"the benchmark runner does not accept it (exit status {code}): {output}"
        return None

    @staticmethod
    def _option_values(arguments, option):
        values = []
        for i, word in enumerate(arguments):
            if word == option and i + 1 < len(arguments):
                values.append(arguments[i + 1])
            elif word.startswith(option + "="):
                values.append(word.split("=", 1)[1])
        return values

    def _check_preset(self, kind, name):
        if name not in self.presets[kind]:
            known = ", ".join(sorted(self.presets[kind]))
            return f"CMakePresets.json has no {kind} preset '{name}' (it has {known})"
        return None

    def _check_cmake(self, arguments):
        presets = self._option_values(arguments, "--preset")
        if "--workflow" in arguments:
            kind = "workflow"
        elif "--build" in arguments:
            kind = "build"
        else:
            kind = "configure"
        for preset in presets:
            problem = self._check_preset(kind, preset)
            if problem:
                return problem
        if "--build" in arguments:
            after = arguments[arguments.index("--target") + 1:] if "--target" in arguments else []
            for target in after:
                if target.startswith("-"):
                    break
                if target not in self.targets:
                    return f"--target {target}: no such target in this repository"
        return None

    def _check_ctest(self, arguments):
        for preset in self._option_values(arguments, "--preset"):
            problem = self._check_preset("test", preset)
            if problem:
                return problem
        for directory in self._option_values(arguments, "--test-dir"):
            parts = directory.strip("/").split("/")
            if len(parts) != 2 or parts[0] != "build" or parts[1] not in self.presets["configure"]:
                return f"--test-dir {directory} is not build/<configure preset>"
        for pattern in self._option_values(arguments, "-R"):
            if pattern in USER_TEST_PATTERNS:
                continue
            if pattern not in self._tests:
                code, text = self._run(["ctest", "--test-dir", self.build_dir, "-N", "-R", pattern])
                match = re.search(r"Total Tests: (\d+)", text)
                self._tests[pattern] = int(match.group(1)) if code == 0 and match else 0
            if self._tests[pattern] == 0:
                return f"-R {pattern} matches no test of this build"
        return None


def check_files(checker, paths, display_root):
    """(number of commands checked, list of failure lines)."""
    failures, count = [], 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for command in extract(text, os.path.relpath(path, display_root)):
            count += 1
            problem = checker.check(command)
            if problem:
                failures.append(f"{command.where()}: {problem}")
    return count, failures
