#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The CI snippets of docs/ci.md are paste-ready: the GitHub Actions workflow and the GitLab job
parse as YAML, and in each of the three (GitHub, GitLab, Jenkins) the file the JUnit test view
reads is the file `kerntime compare --format junit --output FILE` writes, recorded even when the
gate fails. Their commands are checked by check_doc_commands.py with all other commands."""

import os
import re
import shlex
import sys
import unittest

try:
    import yaml
except ImportError:
    sys.exit("ci_snippets_test needs PyYAML: install the Debian package python3-yaml")

SOURCE_DIR = os.environ.get("SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def blocks(language):
    text = open(os.path.join(SOURCE_DIR, "docs", "ci.md"), encoding="utf-8").read()
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, re.M | re.S)


def html_output(commands):
    """The --output/-o FILE.html of a `kerntime compare` command among `commands`."""
    for command in commands:
        words = shlex.split(command.replace("\\\n", " "))
        if "compare" not in words:
            continue
        for flag in ("--output", "-o"):
            if flag in words and words[words.index(flag) + 1].endswith(".html"):
                return words[words.index(flag) + 1]
    return None


def junit_output(commands):
    """The --output file of the `kerntime compare ... --format junit` command among `commands`."""
    for command in commands:
        words = shlex.split(command.replace("\\\n", " "))
        if "compare" not in words or "junit" not in words:
            continue
        for flag in ("--output", "-o"):
            if flag in words:
                return words[words.index(flag) + 1]
    return None


class CiSnippets(unittest.TestCase):
    def test_github_workflow_reports_the_junit_file_it_writes(self):
        workflows = [yaml.safe_load(b) for b in blocks("yaml")]
        workflows = [w for w in workflows if isinstance(w, dict) and "jobs" in w]
        self.assertEqual(len(workflows), 1)
        (job,) = workflows[0]["jobs"].values()
        steps = job["steps"]
        written = junit_output([step.get("run", "") for step in steps])
        self.assertEqual(written, "perf-junit.xml")
        reporters = [s for s in steps if s.get("uses", "").startswith("mikepenz/action-junit-report@")]
        self.assertEqual(len(reporters), 1)
        self.assertEqual(reporters[0]["with"]["report_paths"], written)
        self.assertEqual(reporters[0].get("if"), "always()")
        summary = [s for s in steps if "GITHUB_STEP_SUMMARY" in s.get("run", "")]
        self.assertEqual(len(summary), 1)
        self.assertIn("--format md", summary[0]["run"])
        # The HTML page is written even when the gate fails, uploaded, and linked from the
        # summary through the upload step's artifact-url, which exists only after that step.
        page = html_output([step.get("run", "") for step in steps])
        self.assertEqual(page, "perf.html")
        uploads = [s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@")]
        self.assertEqual(len(uploads), 1)
        self.assertIn(page, uploads[0]["with"]["path"].split())
        self.assertEqual(uploads[0].get("if"), "always()")
        link = "${{ steps." + uploads[0]["id"] + ".outputs.artifact-url }}"
        self.assertIn(link, summary[0]["run"])
        self.assertLess(steps.index(uploads[0]), steps.index(summary[0]))
        writer = next(s for s in steps if page in s.get("run", "") and "compare" in s["run"])
        self.assertEqual(writer.get("if"), "always()")
        self.assertLess(steps.index(writer), steps.index(uploads[0]))

    def test_gitlab_job_reports_the_junit_file_it_writes(self):
        jobs = [yaml.safe_load(b) for b in blocks("yaml")]
        jobs = [j for j in jobs if isinstance(j, dict) and "jobs" not in j]
        self.assertEqual(len(jobs), 1)
        (job,) = jobs[0].values()
        written = junit_output(job["script"])
        self.assertEqual(written, "perf-junit.xml")
        self.assertEqual(job["artifacts"]["reports"]["junit"], written)
        self.assertEqual(job["artifacts"]["when"], "always")
        # expose_as links the first path in the merge request: the page.
        page = html_output(job["script"])
        self.assertEqual(page, "perf.html")
        self.assertEqual(job["artifacts"]["paths"][0], page)
        self.assertIn("expose_as", job["artifacts"])

    def test_jenkins_pipeline_records_the_junit_file_it_writes(self):
        (pipeline,) = blocks("groovy")
        steps = re.findall(r"^\s*sh\s+'(.*)'\s*$", pipeline, re.M)
        written = junit_output(steps)
        self.assertEqual(written, "perf-junit.xml")
        post = pipeline[pipeline.index("post {"):]
        self.assertIn("always {", post)
        self.assertRegex(post, r"junit\s+testResults:\s*'" + re.escape(written) + "'")
        page = html_output(steps)
        self.assertEqual(page, "perf.html")
        self.assertRegex(post, r"archiveArtifacts artifacts: '[^']*" + re.escape(page))
        # Braces balance: the block pastes as a whole pipeline.
        self.assertEqual(pipeline.count("{"), pipeline.count("}"))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + ["-v"])
