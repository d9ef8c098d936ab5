#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kerntime's HTML pages in a real browser: Debian's chromium, headless, driven through Selenium
and chromium-driver. Each page (a report, a traced report, a compare, a trend, and the same
pages of a report of 1,000 entries and a million samples) must load from file:// without a
console message, fetch nothing, draw the SVG elements of each entry and verdict, weigh under
5 MB and finish loading in under 2 s; the colours follow the reader's dark setting. Each page
is also saved as a screenshot (light and dark) under --out, for docs/html.md.

Exit status 77 (CTest's skip) when chromium, chromium-driver or Selenium is missing, unless
KERNTIME_REQUIRE_BROWSER=1 (set by .ci/run, which installs them): then it fails.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE_BOUND = 5_000_000
LOAD_BOUND_MS = 2000.0
CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
DRIVER = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]


def missing_browser(reason):
    if os.environ.get("KERNTIME_REQUIRE_BROWSER") == "1":
        print(f"browser_test: FAILED: {reason} (KERNTIME_REQUIRE_BROWSER=1)", file=sys.stderr)
        sys.exit(1)
    print(f"browser_test: skipped: {reason}; install chromium chromium-driver python3-selenium")
    sys.exit(77)


def first_file(paths):
    return next((p for p in paths if os.path.isfile(p)), None)


def start_browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        # Debian's python3-selenium is in the system's Python, which need not be the first
        # python3 on PATH (pyenv, a virtual environment).
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.isfile(system):
            if subprocess.run([system, "-c", "import selenium"], capture_output=True).returncode == 0:
                os.execv(system, [system] + sys.argv)
        missing_browser("Selenium (python3-selenium) is not installed")
    binary, driver = first_file(CHROMIUM), first_file(DRIVER)
    if binary is None or driver is None:
        missing_browser("chromium or chromium-driver is not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", "--window-size=1200,900", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"browser_test: {' '.join(command)} exited {result.returncode}: "
                         f"{result.stderr.strip()}")
    return result


class Failures:
    def __init__(self):
        self.lines = []

    def check(self, ok, page, what):
        status = "ok  " if ok else "FAIL"
        print(f"  {status} {page}: {what}")
        if not ok:
            self.lines.append(f"{page}: {what}")


def count(browser, selector):
    return browser.execute_script(f"return document.querySelectorAll({json.dumps(selector)}).length")


def screenshot(browser, path, height_cap=2600):
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1200, min(max(height, 400), height_cap))
    browser.save_screenshot(path)
    browser.set_window_size(1200, 900)


def load(browser, page_path, name, failures, out):
    """Opens the page; checks what every page must be; returns nothing."""
    size = os.path.getsize(page_path)
    failures.check(size < SIZE_BOUND, name, f"weighs {size / 1e6:.2f} MB (bound 5 MB)")
    browser.get_log("browser")  # drop what an earlier page left
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    started = time.perf_counter()
    browser.get("file://" + os.path.abspath(page_path))
    wall_ms = (time.perf_counter() - started) * 1000.0
    timing = browser.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "return [n.domContentLoadedEventEnd, n.loadEventEnd];")
    # The first paint after load: the page is on screen, not only parsed.
    painted_ms = browser.execute_async_script(
        "const done = arguments[0];"
        "requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())));")
    failures.check(painted_ms < LOAD_BOUND_MS, name,
                   f"loaded in {timing[1]:.0f} ms, painted at {painted_ms:.0f} ms "
                   f"(driver round trip {wall_ms:.0f} ms; bound {LOAD_BOUND_MS:.0f} ms)")
    messages = [m for m in browser.get_log("browser")]
    failures.check(not messages, name, f"console messages: {messages[:3] if messages else 'none'}")
    fetched = browser.execute_script("return performance.getEntriesByType('resource').length")
    failures.check(fetched == 0, name, f"fetched {fetched} resources (must be none)")
    scripts = count(browser, "script, link, iframe, img[src^='http']")
    failures.check(scripts == 0, name, f"{scripts} script, link, iframe or remote image elements")
    # Accessibility basics: one h1, every plot an image with a name, every table a caption.
    failures.check(count(browser, "h1") == 1, name, "one h1")
    unnamed = browser.execute_script(
        "return [...document.querySelectorAll('svg[role=img]')].filter(s => !(s.getAttribute("
        "'aria-label') || s.getAttribute('aria-labelledby') || s.querySelector('title'))).length")
    plots = count(browser, "svg")
    failures.check(unnamed == 0 and count(browser, "svg[role=img]") == count(browser, "svg"),
                   name, f"{plots} plots, each role=img with a name ({unnamed} without)")
    tables = count(browser, "table")
    headed = browser.execute_script(
        "return [...document.querySelectorAll('table')].filter(t => t.querySelector('caption')"
        " && t.querySelector('thead th[scope=col]')).length")
    failures.check(headed == tables, name,
                   f"{tables} tables, {headed} of them with a caption and column headers")
    if out:
        screenshot(browser, os.path.join(out, name + ".png"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    failures.check(background == "rgb(13, 17, 23)", name, f"dark setting: background {background}")
    if out:
        screenshot(browser, os.path.join(out, name + "-dark.png"), 1400)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    if size < 1_000_000:
        # Printed: wide tables lose their scroll box (nothing is cut off) and the page prints.
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        boxed = browser.execute_script(
            "return [...document.querySelectorAll('.scroll')]"
            ".filter(s => getComputedStyle(s).overflowX !== 'visible').length")
        overflow = "visible" if boxed == 0 else f"{boxed} still boxed"
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        pdf = browser.execute_cdp_cmd("Page.printToPDF", {"printBackground": False})
        pdf_bytes = len(pdf.get("data", "")) * 3 // 4
        failures.check(overflow == "visible" and pdf_bytes > 1000, name,
                       f"printed: tables unboxed ({overflow}), {pdf_bytes / 1000:.0f} KB of PDF")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kerntime", required=True, help="the kerntime executable")
    parser.add_argument("--work", required=True, help="a folder for the reports and pages")
    parser.add_argument("--out", default="", help="where the screenshots go (none: not taken)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    browser = start_browser()
    failures = Failures()
    work = args.work
    make = [sys.executable, os.path.join(HERE, "make_reports.py")]
    kerntime = args.kerntime
    golden = os.path.join(HERE, "..", "report", "golden", "report_with_trace.json")
    try:
        # The report page of a traced report.
        page = os.path.join(work, "report.html")
        run([kerntime, "report", golden, "-o", page])
        load(browser, page, "report", failures, args.out)
        report = json.load(open(golden))
        drawable = sum(1 for e in report["entries"]
                       if len(e["samples"]) >= 2 and max(e["samples"]) > min(e["samples"]))
        failures.check(count(browser, "svg.dist") == drawable, "report",
                       f"{count(browser, 'svg.dist')} box plots for {drawable} entries with spread")
        kernels = len(report["trace"]["kernel_summary"])
        failures.check(count(browser, "svg.kernels rect.bar") == min(kernels, 15) +
                       (1 if kernels > 15 else 0), "report", f"a bar per kernel ({kernels})")

        # The report page of the benchmark engine's report: bandwidth against the peak.
        engine = os.path.join(HERE, "..", "format", "golden", "engine_report.json")
        page = os.path.join(work, "engine.html")
        run([kerntime, "report", engine, "-o", page])
        load(browser, page, "engine", failures, args.out)
        declared = sum(1 for e in json.load(open(engine))["entries"]
                       if (e.get("measurement") or {}).get("throughput", {}).get(
                           "peak_bandwidth_percent") is not None)
        failures.check(declared > 0 and count(browser, "svg.bandwidth rect.bar") == declared,
                       "engine", f"a bandwidth bar per entry with declared bytes ({declared})")

        # The compare page of a pair with planted changes.
        base, cand = os.path.join(work, "base.json"), os.path.join(work, "cand.json")
        run(make + ["pair", base, cand])
        page = os.path.join(work, "compare.html")
        verdicts = json.loads(subprocess.run([kerntime, "compare", base, cand, "--format", "json"],
                                             capture_output=True, text=True).stdout)
        subprocess.run([kerntime, "compare", base, cand, "-o", page], capture_output=True)
        load(browser, page, "compare", failures, args.out)
        entries = verdicts["entries"]
        for verdict in ("regressed", "improved", "same", "inconclusive"):
            expected = sum(1 for e in entries if e["verdict"] == verdict)
            drawn = count(browser, f"svg.forest g.entry.{verdict} .mark")
            words = browser.execute_script(
                f"return [...document.querySelectorAll('svg.forest g.entry.{verdict} text.word')]"
                f".filter(t => t.textContent === '{verdict}').length")
            failures.check(drawn == expected and words == expected, "compare",
                           f"{verdict}: {drawn} markers and {words} words for {expected} entries")
        regressed = sum(1 for e in entries if e["verdict"] in ("regressed", "inconclusive"))
        failures.check(regressed > 0 and count(browser, "figure.strip") == min(regressed, 100),
                       "compare", f"a strip plot for each of {regressed} regressed or "
                       "inconclusive entries")

        # The trend page of ten reports with a planted step in one entry (and one down).
        folder = os.path.join(work, "trend")
        run(make + ["trend", folder, "--points", "10", "--step-at", "6"])
        files = sorted(os.path.join(folder, f) for f in os.listdir(folder))
        page = os.path.join(work, "trend.html")
        run([kerntime, "report", "--format", "html", "-o", page] + files)
        load(browser, page, "trend", failures, args.out)
        failures.check(count(browser, "figure.trend") == 5, "trend", "a chart per entry (5)")
        failures.check(count(browser, "figure.trend circle.mark") == 50, "trend",
                       "a dot per entry and report (50)")
        failures.check(count(browser, "g.step.regressed") == 1 and
                       count(browser, "g.step.improved") == 1, "trend",
                       "the planted step up (regressed) and the one down (improved), no other")

        # The bounds: 1,000 entries and a million samples.
        big = os.path.join(work, "big.json")
        run(make + ["big", big, "--entries", "1000", "--samples", "1000000"])
        page = os.path.join(work, "big-report.html")
        run([kerntime, "report", big, "-o", page])
        load(browser, page, "big-report", failures, "")
        failures.check(count(browser, "svg.dist") == 1000, "big-report", "1000 box plots")
        other = os.path.join(work, "big2.json")
        with open(big) as f:
            data = json.load(f)
        for i, e in enumerate(data["entries"]):
            if i % 10 == 0:
                e["samples"] = [s * 1.2 for s in e["samples"]]
        data["created"] = "2026-12-03T13:00:00Z"
        with open(other, "w") as f:
            json.dump(data, f)
        page = os.path.join(work, "big-compare.html")
        subprocess.run([kerntime, "compare", big, other, "-o", page], capture_output=True)
        load(browser, page, "big-compare", failures, "")
        failures.check(count(browser, "svg.forest g.entry") == 1000, "big-compare",
                       "1000 rows in the forest plot")
        points = []
        for p in range(10):
            point = os.path.join(work, f"big-trend-{p:02d}.json")
            run(make + ["big", point, "--entries", "1000", "--samples", "100000",
                        "--seed", str(10 + p)])
            points.append(point)
        page = os.path.join(work, "big-trend.html")
        run([kerntime, "report", "--format", "html", "-o", page] + points)
        load(browser, page, "big-trend", failures, "")
        rows = browser.execute_script(  # the second table: the entries (the first: reports)
            "return document.querySelectorAll('table')[1].querySelectorAll('tbody tr').length")
        failures.check(rows == 1000,
                       "big-trend", f"every entry in the entries table ({rows} rows of 1000)")
    finally:
        browser.quit()
    if failures.lines:
        print(f"browser_test: {len(failures.lines)} check(s) failed:", file=sys.stderr)
        for line in failures.lines:
            print("  " + line, file=sys.stderr)
        return 1
    print("browser_test: every page passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
