#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Screenshots of kerntime's HTML pages for docs/html.md, in headless chromium (Selenium and
chromium-driver, as tests/html/browser_test.py drives them).

    html_screenshots.py OUT.png PAGE.html [--from CSS] [--height PX] [--width PX] [--dark]

--from starts the picture at the first element the selector matches (e.g. 'figure.trend');
the picture is --height pixels tall (default 1500) and --width wide (default 1000)."""
import argparse
import base64
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "html"))
import browser_test  # noqa: E402  (its start_browser finds chromium and its driver)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("page")
    parser.add_argument("--from", dest="start", default="")
    parser.add_argument("--height", type=int, default=1500)
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--dark", action="store_true")
    args = parser.parse_args()
    browser = browser_test.start_browser()
    try:
        browser.set_window_size(args.width, 900)
        scheme = "dark" if args.dark else "light"
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        browser.get("file://" + os.path.abspath(args.page))
        top = 0
        if args.start:
            top = browser.execute_script(
                "const e = document.querySelector(arguments[0]);"
                "return e ? e.getBoundingClientRect().top + window.scrollY - 8 : 0;", args.start)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        clip = {"x": 0, "y": top, "width": args.width,
                "height": max(100, min(args.height, height - top)), "scale": 1}
        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "clip": clip, "captureBeyondViewport": True})
        with open(args.out, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
