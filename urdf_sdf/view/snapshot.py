"""A PNG of a page, taken by headless Chromium (Debian's ``chromium`` package, or
Google Chrome): the page is the one ``urdf-sdf view`` writes, without its controls, so
the picture is what a user sees when opening it, from the same isometric viewpoint.

Chromium rather than kaleido: kaleido 1.x drives an installed Chrome anyway, and the
browser test needs Chromium already; headless Chromium draws WebGL with SwiftShader
(software), so no GPU or display is needed. Nothing is fetched: every host name
resolves to nothing while the page is open.

The browser runs in a session and process group of its own (so a Ctrl-C at the terminal
reaches us, not it), in a temporary folder ``urdf-sdf-view-*`` holding the page, its
profile, its log and the picture. Whatever ends the picture (done, the browser's
failure, :data:`TIMEOUT`, ``KeyboardInterrupt``, or any exception the command layer
raises from a signal handler: ``urdf_sdf.cli.view`` turns SIGTERM, SIGINT and SIGHUP into
one), the whole group is killed (SIGKILL) and the folder removed before the exception
goes on. Nothing here installs a signal handler.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
WINDOW = (1280, 960)
TIMEOUT = 120.0  # seconds; a 10,000-link page takes the software renderer a while
RENDER_BUDGET_MS = 20_000  # virtual time the page gets to draw before the picture
GROUP_EXIT_WAIT = 2.0  # seconds the killed browser's helpers get to be gone
LOG_TAIL_BYTES = 8192


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


def screenshot(html: str, timeout: float = TIMEOUT) -> bytes:
    """The PNG of page ``html`` (the caller writes it where it is asked, as it writes
    every output). Raises :class:`SnapshotError`."""
    browser = find_browser()
    if browser is None:
        raise SnapshotError(BROWSER_HINT)
    folder = Path(tempfile.mkdtemp(prefix="urdf-sdf-view-"))
    try:
        return _draw(browser, html, folder, timeout).read_bytes()
    finally:
        remove_folder(folder)


def _draw(browser: str, html: str, folder: Path, timeout: float) -> Path:
    """The picture of ``html`` taken by ``browser`` in ``folder``."""
    page = folder / "page.html"
    page.write_text(html, encoding="utf-8")
    picture, log = folder / "page.png", folder / "browser.log"
    command = browser_command(browser, page.as_uri(), f"--screenshot={picture}",
                              f"--user-data-dir={folder / 'profile'}")
    with open(log, "wb") as log_file:
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=log_file,
                                       start_new_session=True)
        except OSError as exc:
            raise SnapshotError(f"cannot run {browser}: {exc}") from exc
        try:
            returncode = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise SnapshotError(f"{browser} took more than {timeout:g} s to draw the page") \
                from exc
        finally:
            stop_group(process)
    if not picture.is_file() or picture.stat().st_size == 0:
        raise SnapshotError(f"{browser} made no picture (exit {returncode}): "
                            + " / ".join(_log_tail(log)))
    return picture


def stop_group(process: subprocess.Popen) -> None:
    """Kill the process group ``process`` leads (the browser and every helper it
    started), reap ``process``, and wait a little for the rest of the group to go."""
    if not hasattr(os, "killpg"):  # no process groups (Windows): the browser alone
        process.kill()
        process.wait()
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already
    process.wait()
    deadline = time.monotonic() + GROUP_EXIT_WAIT
    while time.monotonic() < deadline and _group_alive(process.pid):
        time.sleep(0.02)


def _group_alive(group: int) -> bool:
    """Whether a process of ``group`` still runs. A killed helper whose parent is gone
    stays a zombie until init reaps it (in a container, maybe never), so where ``/proc``
    tells, zombies do not count."""
    try:
        os.killpg(group, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        entries = [e.name for e in os.scandir("/proc") if e.name.isdigit()]
    except OSError:
        return True
    return any(_running_in(group, pid) for pid in entries)


def _running_in(group: int, pid: str) -> bool:
    """Whether process ``pid`` is in ``group`` and not a zombie (``/proc/PID/stat``)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return len(fields) > 2 and fields[2] == str(group).encode() and fields[0] not in (b"Z", b"X")


def remove_folder(folder: Path) -> None:
    """Remove the temporary ``folder`` and all it holds (again, once, if a process of
    the group that was dying still wrote into it)."""
    for _ in range(2):
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            return
        time.sleep(0.05)


def _log_tail(log: Path) -> list[str]:
    """The last three lines of the browser's log (read from its last 8 kB)."""
    try:
        with open(log, "rb") as handle:
            handle.seek(max(0, log.stat().st_size - LOG_TAIL_BYTES))
            text = handle.read(LOG_TAIL_BYTES).decode("utf-8", "replace")
    except OSError:
        return []
    return text.strip().splitlines()[-3:]
