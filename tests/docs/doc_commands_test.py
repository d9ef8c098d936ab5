#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Unit tests of doc_commands.py: what it extracts from Markdown, and that it fails on planted
bad commands (an option that does not exist, a missing preset, an unknown subcommand, a shell
line that is not on the allow-list). The built programs come from the environment:
KERNTIME, RUNNER (sample_benchmarks), SOURCE_DIR, BUILD_DIR."""

import os
import unittest

import doc_commands

FENCE = "```"


def doc(*lines):
    return "\n".join(lines) + "\n"


def words_of(markdown):
    return [c.words for c in doc_commands.extract(markdown, "planted.md")]


class Extraction(unittest.TestCase):
    def test_shell_block_lines_are_commands_comments_and_prompts_are_not(self):
        markdown = doc(
            FENCE + "sh",
            "# a comment",
            "cmake --preset gpu && cmake --build --preset gpu   # and a trailing one",
            "KERNTIME_REQUIRE_GPU=1 time build/gpu/examples/benchmarks/sample_benchmarks \\",
            "    --quiet -o suite.json",
            FENCE)
        self.assertEqual(words_of(markdown), [
            ["cmake", "--preset", "gpu"],
            ["cmake", "--build", "--preset", "gpu"],
            ["build/gpu/examples/benchmarks/sample_benchmarks", "--quiet", "-o", "suite.json"],
        ])

    def test_unlabelled_blocks_keep_prompts_and_known_programs_not_output(self):
        markdown = doc(
            FENCE,
            "$ kerntime compare base.json slower.json",
            "kerntime 0.1.0, host vm, 2026-11-29T16:58:51Z, CUDA driver 13.0",
            "Entry   Baseline  Candidate",
            "ctest --preset default -R RunsSimulation -V",
            "# or: ./build/default/tests/compare/compare_runs_test --gtest_filter='Runs*'",
            "$ echo $?",
            FENCE)
        self.assertEqual(words_of(markdown), [
            ["kerntime", "compare", "base.json", "slower.json"],
            ["ctest", "--preset", "default", "-R", "RunsSimulation", "-V"],
            ["./build/default/tests/compare/compare_runs_test", "--gtest_filter=Runs*"],
            ["echo", "$?"],
        ])

    def test_yaml_run_steps_and_redirections(self):
        markdown = doc(
            FENCE + "yaml",
            "steps:",
            "  - name: Build",
            "    run: |",
            "      cmake --preset gpu",
            "      ./build/gpu/src/cli/kerntime compare a.json b.json \\",
            "        --format md >> \"$GITHUB_STEP_SUMMARY\" || true",
            "  - run: ./build/gpu/src/cli/kerntime info",
            FENCE)
        self.assertEqual(words_of(markdown), [
            ["cmake", "--preset", "gpu"],
            ["./build/gpu/src/cli/kerntime", "compare", "a.json", "b.json", "--format", "md"],
            ["true"],
            ["./build/gpu/src/cli/kerntime", "info"],
        ])

    def test_gitlab_script_items_and_jenkins_sh_steps(self):
        markdown = doc(
            FENCE + "yaml",
            "perf-gate:",
            "  rules:",
            "    - if: $CI_PIPELINE_SOURCE == \"merge_request_event\"",
            "  before_script:",
            "    - cmake --preset gpu",
            "  script:",
            "    - ./build/gpu/src/cli/kerntime compare a.json b.json --format junit",
            "  artifacts:",
            "    paths:",
            "      - perf-junit.xml",
            FENCE,
            FENCE + "groovy",
            "steps {",
            "  sh 'cmake --build --preset gpu'",
            "  sh \"./build/gpu/src/cli/kerntime info\"",
            "  junit testResults: 'perf-junit.xml'",
            "}",
            FENCE)
        self.assertEqual(words_of(markdown), [
            ["cmake", "--preset", "gpu"],
            ["./build/gpu/src/cli/kerntime", "compare", "a.json", "b.json", "--format", "junit"],
            ["cmake", "--build", "--preset", "gpu"],
            ["./build/gpu/src/cli/kerntime", "info"],
        ])

    def test_inline_spans_that_start_with_a_program_and_placeholders(self):
        markdown = doc(
            "Run `kerntime compare BASELINE <that report>` or `sample_benchmarks --format md`;",
            "`kerntime` alone, `--threshold 5%` and `KERNTIME_UPDATE_BASELINE=1 ctest -R perf_`.",
            FENCE + "cpp",
            "kerntime::Session session;  // code blocks of other languages are not commands",
            FENCE)
        self.assertEqual(words_of(markdown), [
            ["kerntime", "compare", "BASELINE", "PLACEHOLDER"],
            ["sample_benchmarks", "--format", "md"],
            ["ctest", "-R", "perf_"],
        ])

    def test_a_synopsis_lists_its_options(self):
        markdown = doc(
            FENCE,
            "kerntime compare BASELINE.json CANDIDATE.json        '-' for either",
            "    [--threshold 5% | --threshold 'PATTERN=10%']...   what counts",
            "    [--format table|md] [-o FILE]",
            FENCE)
        commands = doc_commands.extract(markdown, "planted.md")
        self.assertEqual(len(commands), 1)
        self.assertEqual(commands[0].kind, "synopsis")
        self.assertEqual(commands[0].words, ["kerntime", "compare", "--format", "--threshold", "-o"])


@unittest.skipUnless(os.environ.get("KERNTIME") and os.environ.get("RUNNER"),
                     "needs KERNTIME, RUNNER, SOURCE_DIR and BUILD_DIR (the CTest test sets them)")
class Checks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.checker = doc_commands.Checker(os.environ["KERNTIME"], os.environ["RUNNER"],
                                           os.environ["SOURCE_DIR"], os.environ["BUILD_DIR"])

    def problems(self, markdown):
        return [(c.words, self.checker.check(c))
                for c in doc_commands.extract(markdown, "planted.md")]

    def assert_fails(self, markdown, reason):
        problems = self.problems(markdown)
        self.assertEqual(len(problems), 1, problems)
        self.assertIsNotNone(problems[0][1], f"{problems[0][0]} passed")
        self.assertIn(reason, problems[0][1])

    def test_good_commands_pass(self):
        markdown = doc(
            FENCE + "sh",
            "cmake --workflow --preset quickstart",
            "cmake --preset gpu && cmake --build --preset gpu --target sample_benchmarks",
            "build/gpu/examples/benchmarks/sample_benchmarks --quiet --processes 1 -o one.json",
            "kerntime compare base.json new.json --threshold 'gemm/*=10%' --format junit -o x.xml",
            "kerntime run --capture-range=cudaProfilerApi -o step.json -- python train.py",
            "ctest --preset gpu -R RunsSimulation",
            "bash bench/scripts/gate-measure build/gate-measure 10",
            "git diff",
            FENCE,
            "and `kerntime run` in prose.")
        for words, problem in self.problems(markdown):
            self.assertIsNone(problem, words)

    def test_a_compare_option_that_does_not_exist_fails(self):
        self.assert_fails(doc(FENCE + "sh", "kerntime compare a.json b.json --no-such-option",
                              FENCE), "--no-such-option")

    def test_a_bad_value_fails(self):
        self.assert_fails(doc("`kerntime compare a.json b.json --format yaml`"), "yaml")

    def test_a_subcommand_that_does_not_exist_fails(self):
        self.assert_fails(doc(FENCE, "$ kerntime trace --format json", FENCE), "unknown command")

    def test_a_runner_option_that_does_not_exist_fails(self):
        self.assert_fails(doc(FENCE + "sh", "./build/bench/my_bench --iterations 200", FENCE),
                          "--iterations")

    def test_a_runner_axis_that_does_not_exist_fails(self):
        self.assert_fails(doc("`sample_benchmarks --axis nope=1`"), "nope")

    def test_a_synopsis_option_that_does_not_exist_fails(self):
        self.assert_fails(doc(FENCE, "kerntime compare A B", "    [--colour auto]", FENCE),
                          "--colour")

    def test_a_preset_that_does_not_exist_fails(self):
        self.assert_fails(doc(FENCE + "sh", "cmake --workflow --preset no-such-preset", FENCE),
                          "no workflow preset 'no-such-preset'")

    def test_a_test_pattern_that_matches_nothing_fails(self):
        self.assert_fails(doc(FENCE + "sh", "ctest --preset default -R NoSuchTestAnywhere", FENCE),
                          "matches no test")

    def test_a_build_directory_that_no_preset_makes_fails(self):
        self.assert_fails(doc(FENCE, "# or: ./build/tests/compare/compare_test", FENCE),
                          "build/tests is not")

    def test_a_program_the_build_does_not_make_fails(self):
        self.assert_fails(doc(FENCE + "sh", "build/gpu/examples/no_such_program", FENCE),
                          "no program 'no_such_program'")

    def test_a_target_that_does_not_exist_fails(self):
        self.assert_fails(doc(FENCE + "sh", "cmake --build --preset gpu --target nope", FENCE),
                          "--target nope")

    def test_a_shell_line_off_the_allow_list_fails(self):
        self.assert_fails(doc(FENCE + "sh", "rm -rf build", FENCE), "allow-list")

    def test_a_bad_option_in_a_gitlab_script_fails(self):
        self.assert_fails(doc(FENCE + "yaml", "job:", "  script:",
                              "    - kerntime compare a.json b.json --treshold 5%", FENCE),
                          "--treshold")

    def test_a_bad_option_in_a_jenkins_step_fails(self):
        self.assert_fails(doc(FENCE + "groovy", "sh 'kerntime compare a.json b.json --no-such'",
                              FENCE), "--no-such")


if __name__ == "__main__":
    unittest.main()
