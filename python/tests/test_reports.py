# SPDX-License-Identifier: Apache-2.0
# Reports written from Python are kerntime-report/1 through the C++ writer: they read back
# sample for sample, and `kerntime compare` gates them like the C++ runner's reports.
import json
import random
import subprocess
import sysconfig
from pathlib import Path

import pytest

import kerntime

COMMAND = str(Path(sysconfig.get_path("scripts")) / "kerntime")


def samples(median_ns, count=200, seed=1):
    rng = random.Random(seed)
    return [median_ns * (1.0 + rng.gauss(0.0, 0.01)) for _ in range(count)]


def report_of(entries):
    report = kerntime.Report()
    for name, values in entries.items():
        report.add_samples(name, values, timer="python")
    return report


def compare(base, new, *extra):
    return subprocess.run([COMMAND, "compare", str(base), str(new), *extra], capture_output=True,
                          text=True, timeout=120)


def test_a_report_reads_back_sample_for_sample(tmp_path):
    values = samples(2500.0)
    written = kerntime.write_report(str(tmp_path / "r.json"), report_of({"spin/2us": values}))
    read = kerntime.read_report(str(tmp_path / "r.json"))
    assert read.schema == "kerntime-report/1"
    entry = read.find("spin/2us")
    assert entry is not None and entry.samples == values and entry.timer == "python"
    assert entry.statistics.median == pytest.approx(written.find("spin/2us").statistics.median)
    assert read.environment.tool_version == kerntime.__version__
    document = json.loads((tmp_path / "r.json").read_text())
    assert document["schema"] == "kerntime-report/1"
    assert kerntime.parse_report(read.to_json(), "again").find("spin/2us").samples == values


def test_compare_passes_the_same_timings_and_flags_a_slower_entry(tmp_path):
    base = tmp_path / "base.json"
    same = tmp_path / "same.json"
    slower = tmp_path / "slower.json"
    kerntime.write_report(str(base), report_of({"copy": samples(40e3, seed=1), "mm": samples(1e6, seed=2)}))
    kerntime.write_report(str(same), report_of({"copy": samples(40e3, seed=3), "mm": samples(1e6, seed=4)}))
    kerntime.write_report(str(slower), report_of({"copy": samples(40e3, seed=5), "mm": samples(1.3e6, seed=6)}))
    done = compare(base, same)
    assert done.returncode == 0, done.stdout + done.stderr
    done = compare(base, slower)
    assert done.returncode == 1, done.stdout + done.stderr
    verdicts = {line.split()[0]: line for line in done.stdout.splitlines()
                if line.startswith(("copy ", "mm "))}
    assert "regressed" in verdicts["mm"] and "+30" in verdicts["mm"]
    assert " same " in verdicts["copy"]


def test_entries_need_unique_names_and_samples():
    report = report_of({"a": [1.0, 2.0]})
    with pytest.raises(kerntime.Error, match="already has an entry named 'a'"):
        report.add_samples("a", [1.0])
    with pytest.raises(kerntime.Error, match="no samples"):
        report.add_samples("b", [])


def test_make_report_takes_measurements_or_a_report():
    report = report_of({"a": [1.0, 2.0]})
    assert kerntime.make_report(report) is report
    with pytest.raises(TypeError, match="Measurement"):
        kerntime.make_report([report])


def test_renderings_of_a_report():
    report = report_of({"host/loop": [1000.0, 2000.0, 3000.0]})
    assert "host/loop" in report.render("table")
    assert "| host/loop | 3 |" in report.render("markdown")
    assert "host/loop" in report.render("csv")
    assert json.loads(report.render("json"))["entries"][0]["name"] == "host/loop"
    with pytest.raises(kerntime.Error, match="table"):
        report.render("yaml")


def test_google_benchmark_and_other_files_read_as_the_cli_reads_them(tmp_path):
    runs = [{"name": "BM_copy/64", "run_name": "BM_copy/64", "run_type": "iteration",
             "repetitions": 3, "repetition_index": i, "iterations": 1000, "real_time": t,
             "cpu_time": 4.1, "time_unit": "us"} for i, t in enumerate([4.0, 4.2, 4.1])]
    text = json.dumps({"context": {"date": "2026-12-03T10:00:00+00:00", "num_cpus": 2},
                       "benchmarks": runs})
    path = tmp_path / "gbench.json"
    path.write_text(text)
    for report in (kerntime.read_report(str(path)), kerntime.parse_report(text, "gbench.json")):
        entry = report.find("BM_copy/64")
        assert entry.samples == [4000.0, 4200.0, 4100.0]
        # What Google Benchmark wrote beside each time, kept per repetition (cpu_time in ns).
        columns = {c.name: c.values for c in entry.sample_columns}
        assert columns == {"cpu_time": [4100.0, 4100.0, 4100.0],
                           "iterations": [1000.0, 1000.0, 1000.0]}
        assert entry.summary_only is None
    csv = tmp_path / "out.csv"
    csv.write_text("name,timer,samples\nk,cupti-kernel,20\n")
    with pytest.raises(kerntime.Error, match="is CSV"):
        kerntime.read_report(str(csv))


def test_an_nvbench_file_of_summaries_keeps_them_and_compare_judges_them(tmp_path):
    def state(seconds):
        return {"name": "Device=0", "device": 0, "axis_values": None, "summaries": [
            {"tag": "nv/cold/sample_size", "data": [{"name": "value", "type": "int64", "value": "400"}]},
            {"tag": "nv/cold/time/gpu/mean", "data": [{"name": "value", "type": "float64",
                                                       "value": repr(seconds)}]},
            {"tag": "nv/cold/time/gpu/stdev/relative",
             "data": [{"name": "value", "type": "float64", "value": "0.004"}]}]}

    def nvbench(seconds):
        return json.dumps({"meta": {}, "devices": [], "benchmarks": [
            {"name": "copy", "devices": [0], "axes": None, "states": [state(seconds)]}]})

    base = kerntime.parse_report(nvbench(20e-6), "ref.json")
    entry = base.find("copy/cold")
    assert entry.samples == [pytest.approx(20000.0)]
    assert entry.summary_only.count == 400
    assert entry.summary_only.mean == pytest.approx(20000.0)
    assert entry.summary_only.relative_stdev == pytest.approx(0.004)
    for seconds, verdict in ((20e-6, "same"), (22e-6, "regressed")):
        (tmp_path / "ref.json").write_text(nvbench(20e-6))
        (tmp_path / "cmp.json").write_text(nvbench(seconds))
        done = subprocess.run([COMMAND, "compare", "ref.json", "cmp.json"], cwd=tmp_path,
                              capture_output=True, text=True)
        assert done.returncode == (0 if verdict == "same" else 1), done.stdout + done.stderr
        assert f" {verdict} " in done.stdout and "NVBench's summaries: 400 and 400" in done.stdout
