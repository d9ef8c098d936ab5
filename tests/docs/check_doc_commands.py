#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that every command README.md and docs/*.md show still parses (doc_commands.py says
how). Usage: check_doc_commands.py KERNTIME RUNNER SOURCE_DIR BUILD_DIR [FILE.md...]; without
files, SOURCE_DIR's README.md and docs/*.md, so that a new page is checked without a reconfigure."""

import glob
import os
import sys

import doc_commands


def main(argv):
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    kerntime, runner, source_dir, build_dir = argv[1:5]
    files = argv[5:] or [os.path.join(source_dir, "README.md")] + sorted(
        glob.glob(os.path.join(source_dir, "docs", "*.md")))
    checker = doc_commands.Checker(kerntime, runner, source_dir, build_dir)
    count, failures = doc_commands.check_files(checker, files, source_dir)
    for failure in failures:
        print(failure)
    print(f"doc commands: {count} checked in {len(files)} files, {len(failures)} failed")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
