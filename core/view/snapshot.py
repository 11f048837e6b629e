"""A PNG of a page, taken by headless Chromium (Debian's ``chromium`` package, or
Google Chrome): the page is the one ``urdf-sdf view`` writes, without its controls, so
the picture is what a user sees when opening it, from the same isometric viewpoint.

Chromium rather than kaleido: kaleido 1.x drives an installed Chrome anyway, and the
browser test needs Chromium already; headless Chromium draws WebGL with SwiftShader
(software), so no GPU or display is needed. Nothing is fetched: every host name
resolves to nothing while the page is open.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
WINDOW = (1280, 960)
TIMEOUT = 120.0  # seconds; a 10,000-link page takes the software renderer a while
RENDER_BUDGET_MS = 20_000  # virtual time the page gets to draw before the picture


BROWSER_HINT = ("no Chromium or Chrome on PATH to take the picture with; install one "
                "(Debian/Ubuntu: apt-get install chromium) or set URDF_SDF_CHROMIUM to its "
                "path, or leave out --png")


class SnapshotError(Exception):
    """No picture: no browser, or the browser failed (the message says which)."""


def find_browser() -> str | None:
    """The path of a Chromium-like browser on PATH (``$URDF_SDF_CHROMIUM`` first)."""
    override = os.environ.get("URDF_SDF_CHROMIUM")
    if override:
        return shutil.which(override) or (override if os.path.isfile(override) else None)
    return next((found for found in map(shutil.which, BROWSERS) if found), None)


def browser_command(browser: str, url: str, *extra: str) -> list[str]:
    """Headless Chromium on ``url``: software WebGL, no network, a fixed window."""
    return [browser, "--headless=new", "--no-sandbox", "--disable-gpu",
            "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--no-first-run",
            "--disable-extensions", "--hide-scrollbars", "--mute-audio",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            f"--virtual-time-budget={RENDER_BUDGET_MS}", *extra, url]


def screenshot(html: str, into: str) -> None:
    """Write the PNG of page ``html`` to the path ``into``. Raises :class:`SnapshotError`."""
    browser = find_browser()
    if browser is None:
        raise SnapshotError(BROWSER_HINT)
    with tempfile.TemporaryDirectory(prefix="urdf-sdf-view-") as folder:
        page = Path(folder) / "page.html"
        page.write_text(html, encoding="utf-8")
        picture = Path(folder) / "page.png"
        command = browser_command(browser, page.as_uri(), f"--screenshot={picture}",
                                  f"--user-data-dir={Path(folder) / 'profile'}")
        try:
            done = subprocess.run(command, capture_output=True, timeout=TIMEOUT,
                                  stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired as exc:
            raise SnapshotError(f"{browser} took more than {TIMEOUT:g} s to draw the page") \
                from exc
        except OSError as exc:
            raise SnapshotError(f"cannot run {browser}: {exc}") from exc
        if not picture.is_file() or picture.stat().st_size == 0:
            detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
            raise SnapshotError(f"{browser} made no picture (exit {done.returncode}): "
                                + " / ".join(detail))
        shutil.copyfile(picture, into)
