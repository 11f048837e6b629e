"""Names imported on first use (``core/base/lazy.py``): every ``Later`` table of the source is a
literal that names something that exists, the module is imported only when a name is
used, and a name replaced on its module is the one used."""
from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest

from tests.test_layout import MODULES, later_entries, later_tables
from urdf_sdf.core.base.lazy import Later

ENTRIES = [(name, module, attribute) for name, path in sorted(MODULES.items())
           for module, attribute, _ in later_entries(path)]


def test_the_source_has_later_tables():
    assert len(ENTRIES) >= 10
    assert {name for name, _, _ in ENTRIES} >= {"urdf_sdf.core.base.inertia",
                                               "urdf_sdf.cli.typer_app"}


@pytest.mark.parametrize("path", sorted(MODULES.values()), ids=lambda p: p.name)
def test_every_later_table_is_a_literal_of_module_and_attribute(path):
    for call in later_tables(path):
        assert len(call.args) == 1 and not call.keywords
        assert isinstance(call.args[0], ast.Dict)
        for value in ast.literal_eval(call.args[0]).values():
            assert isinstance(value, tuple) and len(value) == 2
            assert all(isinstance(part, str) for part in value)


@pytest.mark.parametrize("name, module, attribute", ENTRIES,
                         ids=[f"{n.rsplit('.', 1)[1]}:{a}" for n, _, a in ENTRIES])
def test_every_later_entry_names_something(name, module, attribute):
    assert hasattr(importlib.import_module(module), attribute)


def test_a_name_is_imported_when_used_and_not_before():
    code = ("import sys\n"
            "from urdf_sdf.core.base.lazy import Later\n"
            "later = Later({'dis': ('pickletools', 'dis')})\n"
            "before = 'pickletools' in sys.modules\n"
            "later.dis\n"
            "print(before, 'pickletools' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["False", "True"], done.stderr


def test_a_replaced_name_is_the_one_used(monkeypatch):
    import urdf_sdf.core.base.inertia as inertia
    later = Later({"repaired": ("urdf_sdf.core.base.inertia", "repaired")})
    monkeypatch.setattr(inertia, "repaired", "replaced")
    assert later.repaired == "replaced"


def test_a_name_outside_the_table_is_an_attribute_error():
    with pytest.raises(AttributeError, match="not in this Later table"):
        _ = Later({}).anything
