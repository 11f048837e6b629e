"""``core.compose.included``: one include resolver for both compositions.

Every include problem is found the same way by the model composition (``load``) and the
XML composition (``urdf-sdf print``): the same code, at the same file:line, with the same
message. The XML composition counts what includes bring against the same budget.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf import Context, load
from urdf_sdf.cli.printing import compose_xml
from urdf_sdf.core.base.diagnostics import Code, Diagnostics

PART = '<sdf version="1.8"><model name="part"><link name="l"/></model></sdf>'


def including(*includes: str, version: str = "1.8") -> str:
    """A model whose line 3 onwards holds ``includes``, one per line."""
    body = "\n".join(includes)
    return f'<sdf version="{version}">\n<model name="top"><link name="root"/>\n{body}\n' \
           '</model></sdf>\n'


def uri(text: str, more: str = "") -> str:
    return f"<include><uri>{text}</uri>{more}</include>"


# name: (files beside top.sdf, top.sdf's includes, context, the code expected at line 3)
CASES = {
    "no uri": ({}, ["<include><name>x</name></include>"], {}, Code.ATTRIBUTE_MISSING),
    "names nothing": ({}, [uri("absent.sdf")], {}, Code.URI_LOOKUP),
    "leaves its model directory": (
        {"models/m/model.sdf": PART}, [uri("model://m/../../outside.sdf")],
        {"model_paths": ["models"]}, Code.URI_INVALID),
    "cycle": ({"b.sdf": including(uri("top.sdf"))}, [uri("top.sdf")], {}, Code.INCLUDE_CYCLE),
    "too deep": ({"b.sdf": including(uri("c.sdf")), "c.sdf": PART}, [uri("b.sdf")],
                 {"max_include_depth": 1}, None),
    "too many documents": ({"p.sdf": PART}, [uri("p.sdf", "<name>a</name>"),
                                             uri("p.sdf", "<name>b</name>")],
                           {"max_included_documents": 1}, None),
    "too many elements": ({"p.sdf": PART}, [uri("p.sdf")], {"max_included_elements": 2},
                          Code.INCLUDE_TOO_LARGE),
    "malformed": ({"bad.sdf": "<sdf version='1.8'><model"}, [uri("bad.sdf")], {},
                  Code.FILE_READ),
    "neither format": ({"x.xml": "<thing/>"}, [uri("x.xml")], {}, Code.FILE_READ),
    "unsupported version": ({"new.sdf": PART.replace("1.8", "2.0")}, [uri("new.sdf")], {},
                            Code.VERSION_UNSUPPORTED),
    "no model": ({"empty.sdf": '<sdf version="1.8"/>'}, [uri("empty.sdf")], {},
                 Code.ELEMENT_MISSING),
    "two top-level elements": (
        {"two.sdf": PART.replace("</sdf>", '<light name="sun"/></sdf>')}, [uri("two.sdf")], {},
        Code.ELEMENT_INCORRECT_TYPE),
    "placement frame without pose": (
        {"p.sdf": PART}, [uri("p.sdf", "<placement_frame>l</placement_frame>")], {},
        Code.MODEL_PLACEMENT_FRAME_INVALID),
}


def write_case(root: Path, files: dict, includes: list) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    top = root / "top.sdf"
    top.write_text(including(*includes))
    return top


def findings(diagnostics) -> list[tuple]:
    """What is reported, and where."""
    return [(d.code, d.file, d.line, d.message) for d in diagnostics]


@pytest.mark.parametrize("case", CASES)
def test_load_and_print_report_an_include_problem_alike(tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    files, includes, limits, code = CASES[case]
    top = write_case(tmp_path, files, includes)
    limits = {k: [str(tmp_path / p) for p in v] if k == "model_paths" else v
              for k, v in limits.items()}
    context = Context(**limits)
    loaded = findings(load(top, context).diagnostics)
    printed_diagnostics = Diagnostics()
    compose_xml(top, context, printed_diagnostics)
    printed = findings(printed_diagnostics)
    expected = code or (Code.INCLUDE_CYCLE if "deep" in case else Code.INCLUDE_TOO_LARGE)
    assert any(found[0] is expected for found in printed), printed
    assert any(found[0] is expected for found in loaded), loaded
    for finding in printed:  # each with the message the loader gives
        assert finding in loaded, (finding, loaded)


def test_print_stops_at_the_first_include_past_the_budget(tmp_path):
    top = write_case(tmp_path, {"p.sdf": PART}, [uri("p.sdf", f"<name>m{i}</name>")
                                                 for i in range(5)])
    diagnostics = Diagnostics()
    root = compose_xml(top, Context(max_included_documents=2), diagnostics)
    too_large = [d for d in diagnostics if d.code is Code.INCLUDE_TOO_LARGE]
    assert [d.line for d in too_large] == [5]  # the third include, reported once
    assert len(root.findall("model/model")) == 2
