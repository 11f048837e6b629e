"""How ``urdf-sdf diff`` (and the legend of ``urdf-sdf view A B``) writes the differences
:mod:`core.diff.causes` sorted: the causes, one line each, then ``and N dependent
differences``, or with ``--all`` each dependent difference indented under its first cause;
and the one-line :func:`summary` (``1 cause, 29 dependent differences``)."""
from __future__ import annotations

from urdf_sdf.core.diff.difference import DEPENDENT, Difference


def summary(differences: list[Difference]) -> str:
    """``N cause(s), M dependent difference(s)``; ``equivalent`` for none."""
    if not differences:
        return "equivalent"
    dependent = sum(d.role == DEPENDENT for d in differences)
    causes = len(differences) - dependent
    text = f"{causes} {'cause' if causes == 1 else 'causes'}"
    if dependent:
        text += f", {dependent} dependent difference{'' if dependent == 1 else 's'}"
    return text


def diff_report(differences: list[Difference], show_all: bool = False) -> list[str]:
    """The lines ``urdf-sdf diff`` prints before its verdict."""
    under: dict[int, list[Difference]] = {}
    dependents = [d for d in differences if d.role == DEPENDENT]
    for difference in dependents:
        under.setdefault(difference.causes[0], []).append(difference)
    lines = []
    for place, difference in enumerate(differences):
        if difference.role == DEPENDENT:
            continue
        lines.append(difference.format())
        if show_all:
            lines.extend("  " + d.format() for d in under.get(place, ()))
    if dependents and not show_all:
        count = len(dependents)
        lines.append(f"and {count} dependent difference{'' if count == 1 else 's'} "
                     "(--all lists them)")
    return lines
