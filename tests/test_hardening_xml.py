"""Issue 12, XML security: no DTD is ever loaded, no entity expanded, no file, device or
FIFO opened on a document's behalf. A ``<!DOCTYPE>`` with an external id (SYSTEM,
PUBLIC) or an internal subset is refused with XML_UNSAFE at its line, in any encoding; a
bare ``<!DOCTYPE robot>`` declares nothing and is read."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support import TIMEOUT
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load, load_string, sniff_format
from urdf_sdf.core.read.xmlio import detect_encoding, unsafe_doctype

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile"
runner = CliRunner()

PLAIN_URDF = ('<?xml version="1.0" encoding="{encoding}"?>\n<robot name="r">\n'
              '  <link name="base"/>\n</robot>\n')
SYSTEM_URDF = ('<?xml version="1.0" encoding="{encoding}"?>\n'
               '<!DOCTYPE robot SYSTEM "local_entities.dtd">\n<robot name="&secret;">\n'
               '  <link name="base"/>\n</robot>\n')
# (Python codec, the name in the declaration, a BOM written by the codec)
ENCODINGS = [("utf-8", "UTF-8"), ("utf-8-sig", "UTF-8"), ("utf-16", "UTF-16"),
             ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"), ("utf-32", "UTF-32"),
             ("utf-32-le", "UTF-32LE"), ("cp037", "EBCDIC-CP-US")]


@pytest.mark.parametrize("name, line", [("doctype_system_local_dtd.urdf", 2),
                                        ("doctype_public.sdf.xml", 3),
                                        ("doctype_internal_subset_without_entities.urdf", 2),
                                        ("doctype_dev_stdin.urdf", 2)])
def test_a_dtd_is_refused_at_its_line(name, line, diagnostics_checked):
    result = diagnostics_checked.watch(load(HOSTILE / name))
    assert not result.ok and result.document is None
    assert diagnostics_checked.take_error(Code.XML_UNSAFE).line == line


def test_a_bare_doctype_is_read(diagnostics_checked):
    result = diagnostics_checked.watch(load(HOSTILE / "doctype_bare.urdf"))
    assert result.ok


def test_the_local_dtd_entity_never_reaches_the_output():
    result = runner.invoke(urdf2sdf, [str(HOSTILE / "doctype_system_local_dtd.urdf")])
    assert result.exit_code == 1
    assert "DTD-SECRET-TEXT" not in result.stdout + result.stderr
    assert "error[XML_UNSAFE]" in result.stderr


@pytest.mark.parametrize("codec, declared", ENCODINGS)
def test_a_dtd_is_refused_in_every_encoding(codec, declared, tmp_path):
    path = tmp_path / "robot.urdf"
    path.write_bytes(SYSTEM_URDF.format(encoding=declared).encode(codec))
    (tmp_path / "local_entities.dtd").write_bytes((HOSTILE / "local_entities.dtd").read_bytes())
    assert unsafe_doctype(path.read_bytes()) == (2, False)
    result = load(path)
    assert [d.code for d in result.diagnostics] == [Code.XML_UNSAFE]
    assert result.diagnostics[0].line == 2


@pytest.mark.parametrize("codec, declared", ENCODINGS[:-1])  # this libxml2 has no EBCDIC
def test_a_urdf_in_any_encoding_is_read_as_urdf(codec, declared):
    data = PLAIN_URDF.format(encoding=declared).encode(codec)
    assert sniff_format(data) == "urdf"
    result = load_string(data, "robot.urdf")
    assert result.ok, [d.format() for d in result.diagnostics]
    assert result.document.format == "urdf"


def test_utf16_without_bom_is_detected():
    assert detect_encoding("<robot/>".encode("utf-16-le")) == "utf-16-le"
    assert detect_encoding("<robot/>".encode("utf-16-be")) == "utf-16-be"
    assert detect_encoding("\ufeff<robot/>".encode("utf-16-le")) == "utf-16-le"


def test_a_doctype_after_a_long_comment_is_still_found():
    data = (b'<?xml version="1.0"?>\n<!--' + b"x" * 200_000 + b'-->\n'
            b'<!DOCTYPE robot [<!ENTITY a "b">]>\n<robot name="&a;"/>\n')
    assert unsafe_doctype(data) == (3, True)


def test_entities_in_a_subset_are_reported_at_the_entity_line():
    data = b'<?xml version="1.0"?>\n<!DOCTYPE robot [\n  <!ENTITY a "aaaa">\n]>\n<robot/>\n'
    assert unsafe_doctype(data) == (3, True)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_dtd_naming_a_fifo_never_hangs(tmp_path):
    """Nothing ever writes into the FIFO: opening it would block for ever (TIMEOUT in the
    subprocess is only the guard that turns a hang into a failure)."""
    fifo = tmp_path / "dtd.fifo"
    os.mkfifo(fifo)
    source = tmp_path / "robot.urdf"
    source.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE robot SYSTEM "{fifo}">\n'
                      '<robot name="r"><link name="base"/></robot>\n')
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main", "check",
                           str(source)], capture_output=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert b"error[XML_UNSAFE]" in done.stdout
    assert b"Traceback" not in done.stdout + done.stderr


def test_check_refuses_a_dtd_read_from_stdin():
    data = (HOSTILE / "doctype_dev_stdin.urdf").read_bytes()
    result = runner.invoke(umbrella, ["check", "-"], input=data)
    assert result.exit_code == 1
    assert "<stdin>:2: error[XML_UNSAFE]" in result.stdout


def test_undeclared_prefix_is_found_in_element_and_attribute_names_only():
    """What the lenient parser leaves of an undeclared prefix (``p:local`` as the local
    name) is found on an element or an attribute, inside or outside a namespace; a
    namespace URI's own colons, a comment and text are not names."""
    from urdf_sdf.core.base.diagnostics import Diagnostics
    from urdf_sdf.core.read.prefixes import has_undeclared_prefixes
    from urdf_sdf.core.read.xmlio import parse_xml

    def parsed(inner: str):
        return parse_xml(f'<sdf xmlns:u="urn:x:y"><link>{inner}</link></sdf>', None,
                         Diagnostics())

    assert not has_undeclared_prefixes(parsed('<u:pose u:name="a:b">c:d</u:pose><!-- p:q -->'))
    for inner in ("<p:sensor/>", '<sensor p:type="x"/>', '<u:sensor p:type="x"/>'):
        assert has_undeclared_prefixes(parsed(inner)), inner
