# SPDX-License-Identifier: Apache-2.0
"""The version has one home, project() in CMakeLists.txt: pyproject.toml reads it there.

Usage: version_test.py SOURCE_DIR PROJECT_VERSION (the version CMake read from project()).
The regex is applied the way scikit-build-core's regex provider applies it (re.search with
re.MULTILINE over the input file), so a wheel gets the version CMake builds with.
"""

import pathlib
import re
import sys
import unittest

try:
    import tomllib
except ImportError:  # Python before 3.11
    try:
        import tomli as tomllib
    except ImportError:
        sys.exit("version_test.py needs Python 3.11 or the tomli module (pip install tomli)")

SOURCE_DIR = pathlib.Path(sys.argv[1])
PROJECT_VERSION = sys.argv[2]


def pyproject():
    with open(SOURCE_DIR / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


class SingleVersion(unittest.TestCase):
    def test_pyproject_does_not_write_the_version(self):
        project = pyproject()["project"]
        self.assertNotIn("version", project, "pyproject.toml writes a version of its own")
        self.assertIn("version", project.get("dynamic", []))

    def test_the_wheel_version_is_cmakes(self):
        settings = pyproject()["tool"]["scikit-build"]["metadata"]["version"]
        self.assertEqual(settings["provider"], "scikit_build_core.metadata.regex")
        text = (SOURCE_DIR / settings["input"]).read_text(encoding="utf-8")
        match = re.search(settings["regex"], text, re.MULTILINE)
        self.assertIsNotNone(match, f"{settings['regex']!r} finds nothing in {settings['input']}")
        self.assertEqual(match.group("value"), PROJECT_VERSION)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
