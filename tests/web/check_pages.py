"""Opens Collidescope's exported web pages in headless Chromium (Debian's, driven by
Playwright) and checks each as a reader would meet it: the page loads with no console
error and no request leaving it, and stepping to a step shows that step's text and a
picture that is not blank.

    python3 tests/web/check_pages.py PAGE.html[:EXPECT.json] ...

EXPECT.json (optional) lists the texts the page must show: {"steps": [[run, step,
text], ...]} for a scene page, {"pages": [[page, narration], ...]} for a lesson (the
narration `collidescope lesson` prints for that page). Exits 1 with every failure
listed; prints one line per page checked.
"""

import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# The flags that keep Chromium from calling out at start (this machine's network is
# closed: without them it tries Google's hosts).
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def picture_is_drawn(page):
    """The 3-D view's canvas holds more than its background: enough pixels differ."""
    return page.evaluate(
        """() => {
        const c = document.getElementById('view');
        const ctx = c.getContext('2d');
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        const bg = [d[0], d[1], d[2]];
        let differ = 0;
        for (let i = 0; i < d.length; i += 16) {
          if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 30) differ++;
        }
        return differ / (d.length / 16);
      }"""
    )


def check(browser, path, expect, failures):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors, requests = [], []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))

    def on_request(request):
        if not (request.url.startswith("file:") or request.url.startswith("data:")):
            requests.append(request.url)

    page.on("request", on_request)
    url = Path(path).resolve().as_uri()
    page.goto(url)
    page.wait_for_function("() => window.collidescope !== undefined")
    # Measured, not asserted (a timing depends on the machine): docs/benchmarks.md.
    first = page.evaluate("() => window.collidescope.firstPicture")
    name = Path(path).name
    data = page.evaluate("() => window.collidescope.data")
    checked = 0
    if data.get("lesson"):
        pages = data["lesson"]["pages"]
        wanted = {k: text for k, text in (expect or {}).get("pages", [])}
        for k in range(len(pages)):
            shown = page.evaluate(f"() => window.collidescope.page({k})")
            if shown["text"].split("Drawn only in the desktop viewer")[0] != "".join(s[0] for s in pages[k]["text"]):
                failures.append(f"{name} page {k + 1}: its text is not the lesson's")
            if k in wanted and shown["narration"] != wanted[k]:
                failures.append(
                    f"{name} page {k + 1}: shows {shown['narration']!r}, "
                    f"collidescope lesson prints {wanted[k]!r}"
                )
            drawn = picture_is_drawn(page)
            if drawn < 0.005:
                failures.append(f"{name} page {k + 1}: the picture is blank ({drawn:.4f})")
            checked += 1
    else:
        wanted = (expect or {}).get("steps", [])
        for run, step, text in wanted:
            page.evaluate(f"() => window.collidescope.focus({run})")
            shown = page.evaluate(f"() => window.collidescope.step({step})")
            if shown != text:
                failures.append(f"{name} run {run} step {step + 1}: shows {shown!r}, expected {text!r}")
            checked += 1
        for run_index, run in enumerate(data["runs"]):
            page.evaluate(f"() => window.collidescope.focus({run_index})")
            last = len(run["steps"]) - 1
            for step in sorted({0, last // 2, last}):
                shown = page.evaluate(f"() => window.collidescope.step({step})")
                if shown != run["steps"][step]["text"]:
                    failures.append(f"{name} {run['method']} step {step + 1}: shows {shown!r}")
                drawn = picture_is_drawn(page)
                if drawn < 0.005:
                    failures.append(f"{name} {run['method']} step {step + 1}: the picture is blank")
                checked += 1
    # Keys step too.
    before = page.evaluate("() => window.collidescope.state()")
    page.keyboard.press("ArrowRight")
    after = page.evaluate("() => window.collidescope.state()")
    steps = len(data["runs"][before["run"]]["steps"])
    if steps > 1 and before["step"] + 1 < steps and after["step"] != before["step"] + 1:
        failures.append(f"{name}: the right arrow key did not step")
    for e in errors:
        failures.append(f"{name}: console error: {e}")
    for r in requests:
        failures.append(f"{name}: a request left the page: {r}")
    print(
        f"{name}: {checked} steps checked, {len(errors)} console errors, {len(requests)} requests, "
        f"first picture after {first:.0f} ms"
    )
    page.close()


def main(arguments):
    failures = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        for argument in arguments:
            path, _, expect_path = argument.partition(":")
            expect = json.loads(Path(expect_path).read_text()) if expect_path else None
            check(browser, path, expect, failures)
        browser.close()
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
