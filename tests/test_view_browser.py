"""``urdf-sdf view`` pages in a real browser: headless Chromium opens each page from a
file URL with every host name resolving to nothing, and

* nothing goes to the console as an error (``console.error``, an uncaught exception or
  rejection), also when the joint slider and the show/hide buttons are used;
* the picture (``--png``) is not blank, and a diff page's shows both overlay colours.

Needs Chromium (``apt-get install chromium``): skipped without it, failed under CI. The
page tests take minutes (``@pytest.mark.slow``): outside CI they run with ``URDF_SDF_FULL=1``.
"""
from __future__ import annotations

import re
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.support import require
from urdf_sdf.cli.main import app
from urdf_sdf.view.snapshot import TIMEOUT, browser_command, find_browser

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
CHROMIUM_HINT = "apt-get install chromium"
runner = CliRunner()

# Put first in the page's <head>: errors are written into an attribute of <html>, read
# back with --dump-dom; once drawn, the page's controls are used (the last slider step,
# the joint picker, every show/hide button) and "exercised" says whether the frames moved.
# Two allowances for the harness: headless --dump-dom draws no animation frames, so
# requestAnimationFrame is a timer here; and plotly.js rejects an internal promise with
# no reason when a 3D animation step ends (it prints "Uncaught (in promise) undefined"
# only then, never when the page opens): a rejection without a reason is not counted.
COLLECTOR = """<script>
(function () {
  window.requestAnimationFrame = function (f) { return setTimeout(function () { f(performance.now()); }, 16); };
  window.cancelAnimationFrame = clearTimeout;
  var root = document.documentElement, errors = [];
  function note(text) { errors.push(String(text)); root.setAttribute("data-errors", errors.join(" | ")); }
  var original = console.error;
  console.error = function () { note(Array.prototype.join.call(arguments, " ")); original.apply(console, arguments); };
  window.addEventListener("error", function (e) { note("uncaught: " + e.message); });
  window.addEventListener("unhandledrejection", function (e) { if (e.reason !== undefined) note("rejection: " + e.reason); });
  function where(gd, traces) {
    return JSON.stringify(traces.map(function (i) { return [gd.data[i].x, gd.data[i].y, gd.data[i].z]; }));
  }
  window.addEventListener("load", function () {
    setTimeout(function () {
      var gd = document.getElementById("urdf-sdf-view");
      var frames = (gd._transitionData && gd._transitionData._frames) || [];
      var sliders = (gd.layout.sliders || []).length;
      var last = frames.length ? frames[frames.length - 1] : null;
      var probe = last ? last.traces : [];
      var before = where(gd, probe);
      var done = last ? Plotly.animate(gd, [last.name], {mode: "immediate", frame: {duration: 0,
          redraw: true}, transition: {duration: 0}}) : Promise.resolve();
      done.then(function () {
        var moved = !last || where(gd, probe) !== before;
        return (sliders > 1 ? Plotly.relayout(gd, {"sliders[0].visible": false,
                                                   "sliders[1].visible": true}) : Promise.resolve())
          .then(function () { return Plotly.restyle(gd, {visible: true}); })
          .then(function () {
            root.setAttribute("data-exercised", frames.length + " frames, " + sliders +
                              " sliders, moved " + moved);
          });
      }).catch(function (e) { note("control: " + e); });
    }, 500);
  });
})();
</script>"""


def browser() -> str:
    found = find_browser()
    require(found is not None, "Chromium (or Chrome)", CHROMIUM_HINT)
    return found


def page(tmp_path: Path, *files: str) -> tuple[Path, Path]:
    """The page and the picture ``urdf-sdf view FILES`` writes."""
    html, png = tmp_path / "page.html", tmp_path / "page.png"
    result = runner.invoke(app, ["view", *(str(SAMPLES / f) for f in files), "-o", str(html),
                                 "--png", str(png)])
    assert result.exit_code == 0, result.output
    return html, png


def console_errors(chromium: str, html: Path) -> tuple[str, str]:
    """What the page wrote to the console as errors, and what its controls did."""
    probed = html.with_name("probed.html")
    text = html.read_text(encoding="utf-8")
    probed.write_text(text.replace("<head>", "<head>" + COLLECTOR, 1), encoding="utf-8")
    done = subprocess.run(browser_command(chromium, probed.as_uri(), "--dump-dom",
                                          f"--user-data-dir={html.parent / 'profile'}"),
                          capture_output=True, text=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)
    opening = re.search(r"<html[^>]*>", done.stdout)
    assert opening, f"chromium dumped no page (exit {done.returncode}): {done.stderr[-2000:]}"
    errors = re.search(r'data-errors="([^"]*)"', opening.group(0))
    exercised = re.search(r'data-exercised="([^"]*)"', opening.group(0))
    return (errors.group(1) if errors else "", exercised.group(1) if exercised else "")


def png_pixels(data: bytes) -> np.ndarray:
    """``(height, width, 3)`` RGB of an 8-bit, non-interlaced RGB or RGBA PNG (what
    Chromium writes), decoded here so the tests need no imaging library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks = 8, []
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
    assert depth == 8 and interlace == 0 and colour in (2, 6)
    bpp = 3 if colour == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(chunks)), np.uint8).reshape(height, -1)
    rows, previous = [], np.zeros(width * bpp, np.int64)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:].astype(np.int64)
        if kind == 0:
            row = line
        elif kind == 1:
            row = np.cumsum(line.reshape(-1, bpp), axis=0).reshape(-1) % 256
        elif kind == 2:
            row = (line + previous) % 256
        else:
            row = _sequential(kind, line.tolist(), previous.tolist(), bpp)
        rows.append(row)
        previous = row
    return np.array(rows, np.uint8).reshape(height, width, bpp)[:, :, :3]


def _sequential(kind: int, line: list, up: list, bpp: int) -> np.ndarray:
    """PNG's average (3) and Paeth (4) filters, which run along the row."""
    out = [0] * len(line)
    for i, value in enumerate(line):
        left = out[i - bpp] if i >= bpp else 0
        corner = up[i - bpp] if i >= bpp else 0
        if kind == 3:
            out[i] = (value + (left + up[i]) // 2) % 256
            continue
        p = left + up[i] - corner
        pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - corner)
        guess = left if pa <= pb and pa <= pc else up[i] if pb <= pc else corner
        out[i] = (value + guess) % 256
    return np.array(out, np.int64)


def coloured(pixels: np.ndarray) -> np.ndarray:
    """Pixels that are neither white-ish nor grey (the scene's background and grid)."""
    rgb = pixels.astype(int)
    return (rgb.max(axis=2) - rgb.min(axis=2)) > 40


def test_the_png_decoder_reads_what_it_is_given():
    height, width = 3, 2
    image = np.arange(height * width * 3, dtype=np.uint8).reshape(height, width, 3)
    raw = b"".join(b"\x00" + image[y].tobytes() for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + b"".join(
        struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        for kind, body in ((b"IHDR", header), (b"IDAT", zlib.compress(raw)), (b"IEND", b"")))
    assert (png_pixels(data) == image).all()


@pytest.mark.slow
@pytest.mark.parametrize("files", [("arm6.urdf",), ("diff_drive.sdf",),
                                   ("composition/flanges/super_armio_bros.sdf",)],
                         ids=lambda f: f[0])
def test_a_page_opens_offline_without_console_errors_and_its_picture_is_not_blank(
        tmp_path, files):
    chromium = browser()
    html, png = page(tmp_path, *files)
    errors, exercised = console_errors(chromium, html)
    assert errors == ""
    assert exercised.endswith("moved true"), f"the page's controls did not work: {exercised}"
    pixels = png_pixels(png.read_bytes())
    assert pixels.shape[:2] == (960, 1280)
    # An empty scene has no coloured pixel at all (its background and grid are grey-blue);
    # the smallest sample, two grey columns, shows its frames' axes in ~1,900.
    assert coloured(pixels).sum() > 500, "the picture is blank"


@pytest.mark.slow
def test_a_diff_page_shows_both_overlay_colours(tmp_path):
    chromium = browser()
    html, png = page(tmp_path, "arm6.urdf", "diff_drive.urdf")
    errors, exercised = console_errors(chromium, html)
    assert errors == "" and exercised.endswith("moved true"), exercised
    rgb = png_pixels(png.read_bytes()).astype(int)
    r, g, b = rgb[:, :, 0], rgb[:, :, 1], rgb[:, :, 2]
    blue = (b > r + 50) & (b > g + 20)                            # A: #1f77b4
    orange = (r > b + 80) & (g > 80) & (r > g + 40)               # B: #ff7f0e
    assert blue.sum() > 1000 and orange.sum() > 1000, (blue.sum(), orange.sum())
