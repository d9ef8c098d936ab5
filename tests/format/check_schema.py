# SPDX-License-Identifier: Apache-2.0
"""Checks docs/kerntime-report-1.schema.json against what kerntime writes and reads.

Usage: check_schema.py <schema.json> <golden report.json>
Exit status 0 when the schema is valid draft 2020-12, accepts the golden report and a minimal
file, and rejects a few reports that kerntime's reader rejects; 1 otherwise, and 1 with a
message naming the package to install when the jsonschema module is missing.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check_schema.py needs the Python module jsonschema, which this Python "
          f"({sys.executable}) lacks: install the Debian package python3-jsonschema "
          "(or pip install jsonschema). .ci/run installs it.")
    sys.exit(1)


def main(schema_path, report_path):
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.FormatChecker())
    with open(report_path, encoding="utf-8") as f:
        golden = json.load(f)

    accepted = {
        "golden report": golden,
        "minimal file": {"schema": "kerntime-report/1",
                         "entries": [{"name": "a", "samples": [1, 2.5]}]},
        "unknown fields": {"schema": "kerntime-report/1", "extra": 1,
                           "entries": [{"name": "a", "samples": [], "tags": []}]},
    }
    rejected = {
        "other major version": {"schema": "kerntime-report/2", "entries": []},
        "negative sample": {"schema": "kerntime-report/1",
                            "entries": [{"name": "a", "samples": [-1]}]},
        "empty name": {"schema": "kerntime-report/1", "entries": [{"name": "", "samples": []}]},
        "unit us": {"schema": "kerntime-report/1",
                    "entries": [{"name": "a", "unit": "us", "samples": []}]},
        "missing samples": {"schema": "kerntime-report/1", "entries": [{"name": "a"}]},
        "bad CUDA version": {"schema": "kerntime-report/1", "entries": [],
                             "environment": {"driver_version": "13"}},
        "measurement not an object": {"schema": "kerntime-report/1",
                                      "entries": [{"name": "a", "samples": [],
                                                   "measurement": []}]},
        "zero batch": {"schema": "kerntime-report/1",
                       "entries": [{"name": "a", "samples": [],
                                    "measurement": {"batch_size": 0}}]},
        "negative floor": {"schema": "kerntime-report/1",
                           "entries": [{"name": "a", "samples": [],
                                        "measurement": {"event_floor_ns": -1}}]},
        "counter without a value": {"schema": "kerntime-report/1",
                                    "entries": [{"name": "a", "samples": [],
                                                 "measurement": {"counters": [{"name": "c"}]}}]},
        "counter of another kind": {"schema": "kerntime-report/1",
                                    "entries": [{"name": "a", "samples": [],
                                                 "measurement": {"counters": [
                                                     {"name": "c", "value": 1,
                                                      "kind": "average"}]}}]},
        "negative elements": {"schema": "kerntime-report/1",
                              "entries": [{"name": "a", "samples": [],
                                           "measurement": {"work": {"elements": -1}}}]},
    }
    failures = []
    for name, document in accepted.items():
        for error in validator.iter_errors(document):
            failures.append(f"{name}: rejected at {error.json_path}: {error.message}")
    for name, document in rejected.items():
        if validator.is_valid(document):
            failures.append(f"{name}: accepted, but kerntime rejects it")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
