"""Names imported when they are first used, from a static table.

The project imports at module level only (``tests/test_layout.py``). A module that needs
an optional or costly third-party module on some paths only (numpy for an inertia tensor
with products of inertia, typer for ``--help``, the view extra) names what it uses in a
table instead of importing it::

    _NUMPY = Later({"linalg": ("numpy", "linalg")})

    def principal_moments(inertial):
        ...
        return sorted(_NUMPY.linalg.eigvalsh(tensor(inertial)))   # imported here, once

The table is a literal dict of ``name -> (module, attribute)``: ``tests/test_layout.py``
reads every ``Later({...})`` as the module's imports (the layering rules hold for them as
for the others) and ``tests/core/base/test_lazy.py`` imports every entry, so a table that names
nothing fails a test, not a user. Nothing is cached here: a lookup is an
``importlib.import_module`` (a dictionary hit once the module is loaded) and a
``getattr``, so a name replaced on its module (a test's monkeypatch) is seen.
"""
from __future__ import annotations

import importlib


class Later:
    """Attribute access on this object imports the name from its table's module."""

    __slots__ = ("table",)

    def __init__(self, table: dict[str, tuple[str, str]]) -> None:
        self.table = table

    def __getattr__(self, name: str):
        try:
            module, attribute = self.table[name]
        except KeyError:
            raise AttributeError(f"{name!r} is not in this Later table") from None
        return getattr(importlib.import_module(module), attribute)
