"""The conversion report: what a conversion converted one to one, carried, made explicit,
repaired, approximated, renamed and dropped, and its one-line verdict
(``urdf2sdf --report``, ``sdf2urdf --report``, ``Conversion.report`` in Python).

Everything in it is counted, never guessed:

* **converted**: the elements of each kind (links, joints, frames, visuals, collisions)
  in the input's model, beside those of the written document (``sensors``, ``plugins``,
  ``lights`` as written outside carried content);
* **carried**: the written document's content in a namespace (``urdf:`` elements in an
  SDF, ``drake:`` and other prefixes, foreign-namespace attributes) and, in a URDF, its
  ``<gazebo>`` blocks: counted in the document, with the coded warnings that say why;
* **restored, re-expressed, defaulted, repaired, approximated, renamed, dropped**: the
  conversion's coded warnings, sorted by ``core.inspect.changes.CATEGORY``, and what no
  warning states but the documents show (counted, not coded): a URDF link without
  ``<inertial>`` written as mass 0 (``urdf:implicit``), an SDF link without ``<inertial>``
  written with SDFormat's default (mass 1, unit inertia), the links ``--lump-fixed`` merged
  (the ``<frame urdf:lumped="link">`` left where each was), links and joints of
  ``<gazebo>`` blocks written as SDF ones (``urdf:gazebo``), the ``urdf:`` elements of an
  SDF given back as URDF, and a world's placement of its models written into the URDF's
  origins.

The verdict (:class:`Verdict`) is the worst of them: ``refused`` (an error: nothing
written), ``changed`` (content dropped or renamed), ``approximated`` (repaired or
approximated), ``exact, with ...`` (carried or restored content, poses re-expressed,
defaults made explicit: what every consumer reads is the same), or ``exact``.
"""
from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field, replace

from lxml import etree

from urdf_sdf.core.base.custom import URDF_NS, qname
from urdf_sdf.core.base.diagnostics import Code, Diagnostic
from urdf_sdf.core.base.model import Model
from urdf_sdf.core.base.pose import IDENTITY
from urdf_sdf.core.inspect.changes import Category, category_of

# The elements counted, by tag, and the name of their kind, in the report's order.
_KIND_OF_TAG = {"link": "links", "joint": "joints", "frame": "frames", "visual": "visuals",
                "collision": "collisions", "sensor": "sensors", "plugin": "plugins",
                "light": "lights"}
KINDS = tuple(_KIND_OF_TAG.values())
# The sections of the report, in the order they are printed, after "converted" and
# "carried".
CHANGES = (Category.RESTORED, Category.REEXPRESSED, Category.DEFAULTED, Category.REPAIRED,
           Category.APPROXIMATED, Category.RENAMED, Category.DROPPED)
# What the verdict "exact, with ..." names for each category that leaves it exact.
EXACT_WITH = {Category.CARRIED: "carried content", Category.RESTORED: "carried content restored",
              Category.REEXPRESSED: "poses re-expressed",
              Category.DEFAULTED: "defaults made explicit"}
_IMPLICIT, _LUMPED, _FROM_GAZEBO = qname("implicit"), qname("lumped"), qname("gazebo")
# A counted change no diagnostic states: what the report calls it.
URDF_INERTIAL_IMPLICIT = "links without <inertial>, written as mass 0"
SDF_INERTIAL_DEFAULT = "links without <inertial>, written as SDFormat's default (mass 1)"
LINK_LUMPED = "links lumped into their parent by --lump-fixed"
GAZEBO_STRUCTURE = ("links and joints of <gazebo> blocks, written as SDF ones (as "
                    "libsdformat reads them)")
URDF_CONTENT_RESTORED = "urdf: elements given back as URDF"
WORLD_PLACEMENT = "models placed by their world: written relative to the world"


class Verdict(str, enum.Enum):
    """The kind of a verdict (``report.verdict.kind`` in JSON)."""
    EXACT = "exact"
    EXACT_WITH = "exact-with"       # carried content or defaults made explicit, nothing else
    APPROXIMATED = "approximated"
    CHANGED = "changed"
    REFUSED = "refused"


@dataclass(frozen=True)
class Change:
    """One kind of change: a diagnostic code (with its count) or a counted change no
    diagnostic states (``code`` None, ``what`` says which)."""
    category: Category
    what: str
    count: int
    code: Code | None = None

    def to_json(self) -> dict:
        return {"category": self.category.value, "code": self.code.value if self.code else None,
                "what": self.what, "count": self.count}

    def label(self) -> str:
        """``CODE (count)``, or ``what (count)`` for a change no code states."""
        return f"{self.code.value if self.code else self.what} ({self.count})"


@dataclass
class ConversionReport:
    """What one conversion did (see the module's description)."""
    file: str | None
    source_format: str   # "urdf" or "sdf"
    target_format: str
    written: bool
    read: dict[str, int] = field(default_factory=dict)      # kind -> count in the input
    wrote: dict[str, int] = field(default_factory=dict)     # kind -> count in the output
    carried: dict[str, int] = field(default_factory=dict)   # "urdf:transmission" -> count
    changes: list[Change] = field(default_factory=list)
    refusals: list[Code] = field(default_factory=list)

    def not_written(self, diagnostics: list[Diagnostic]) -> ConversionReport:
        """This report for a conversion whose output was not written after all (its write
        failed): refused, with the errors' codes."""
        return replace(self, written=False, refusals=[d.code for d in diagnostics if d.is_error])

    def of(self, category: Category) -> list[Change]:
        return [change for change in self.changes if change.category is category]

    @property
    def verdict_kind(self) -> Verdict:
        if self.refusals or not self.written:
            return Verdict.REFUSED
        if self.of(Category.DROPPED) or self.of(Category.RENAMED):
            return Verdict.CHANGED
        if self.of(Category.APPROXIMATED) or self.of(Category.REPAIRED):
            return Verdict.APPROXIMATED
        if self.carried or any(self.of(category) for category in EXACT_WITH):
            return Verdict.EXACT_WITH
        return Verdict.EXACT

    @property
    def verdict(self) -> str:
        """The one-line verdict: ``exact``; ``exact, with carried content`` (and/or
        ``defaults made explicit``); ``approximated: ...``; ``changed: ...``;
        ``refused: CODE, ...``."""
        kind = self.verdict_kind
        if kind is Verdict.REFUSED:
            codes = ", ".join(dict.fromkeys(code.value for code in self.refusals))
            return f"refused: {codes or 'nothing written'}"
        if kind is Verdict.EXACT:
            return "exact"
        if kind is Verdict.EXACT_WITH:
            parts = [text for category, text in EXACT_WITH.items() if self.of(category)
                     or (category is Category.CARRIED and self.carried)]
            return "exact, with " + ", ".join(parts)
        categories = ((Category.DROPPED, Category.RENAMED, Category.APPROXIMATED,
                       Category.REPAIRED) if kind is Verdict.CHANGED else
                      (Category.APPROXIMATED, Category.REPAIRED))
        named = [change.label() for category in categories for change in self.of(category)]
        return f"{kind.value}: {', '.join(named)}"

    def to_json(self) -> dict:
        """The report as JSON data (``report`` in ``urdf2sdf --report --json``; the schema:
        ``urdf_sdf/schemas/check.schema.json``, ``$defs/report``)."""
        return {"file": self.file, "from": self.source_format, "to": self.target_format,
                "verdict": {"kind": self.verdict_kind.value, "text": self.verdict},
                "converted": {kind: {"read": self.read.get(kind, 0),
                                     "written": self.wrote.get(kind, 0)}
                              for kind in KINDS if self.read.get(kind) or self.wrote.get(kind)},
                "carried": dict(self.carried),
                "changes": [change.to_json() for change in self.changes]}

    def lines(self) -> list[str]:
        """The report as text: a verdict line, then one line per section."""
        target = "SDF" if self.target_format == "sdf" else "URDF"
        out = [f"{self.file or '<stdin>'}: report: {self.verdict}"]
        if not self.written:
            return out
        out.append("  converted: " + _counts(self.read, self.wrote))
        carried = ", ".join(f"{name} ({count})" for name, count in self.carried.items())
        codes = ", ".join(change.label() for change in self.of(Category.CARRIED))
        out.append(f"  carried (in the {target}): " + (carried or "nothing")
                   + (f" [{codes}]" if codes else ""))
        for category in CHANGES:
            changes = self.of(category)
            if changes or category is Category.DROPPED:
                out.append(f"  {category.value}: "
                           + (", ".join(change.label() for change in changes) or "nothing"))
        return out


def verdict_totals(reports: list[ConversionReport]) -> str:
    """The total line of a batch's reports: ``reports: 3 files: 2 exact, 1 approximated``."""
    kinds = Counter(report.verdict_kind for report in reports)
    counted = ", ".join(f"{kinds[kind]} {kind.value}" for kind in Verdict if kinds[kind])
    return f"reports: {len(reports)} file{'s' if len(reports) != 1 else ''}: {counted}"


def _counts(read: dict[str, int], wrote: dict[str, int]) -> str:
    """``5 links, 4 joints`` where every count was kept; ``links 5 -> 3`` where not."""
    kept, moved = [], []
    for kind in KINDS:
        before, after = read.get(kind, 0), wrote.get(kind, 0)
        if before == after and before:
            kept.append(f"{before} {kind}")
        elif before != after:
            moved.append(f"{kind} {before} -> {after}")
    return ", ".join(kept + moved) or "nothing"


def conversion_report(model_document, diagnostics: list[Diagnostic], xml: bytes | None,
                      target_format: str) -> ConversionReport:
    """The report of a conversion of ``model_document`` (the input's
    ``core.base.model.Document``, None when it could not be read) that gave ``xml`` (None:
    nothing written) and ``diagnostics``."""
    source_format = "urdf" if target_format == "sdf" else "sdf"
    file = model_document.file if model_document is not None else None
    report = ConversionReport(file, source_format, target_format, xml is not None)
    report.refusals = [d.code for d in diagnostics if d.is_error]
    if model_document is not None:
        report.read = input_counts(model_document)
    by_code = Counter(d.code for d in diagnostics if not d.is_error)
    report.changes = [Change(category_of(code), code.value, count, code)
                      for code, count in by_code.items()
                      if category_of(code) not in (Category.NOTE, Category.REFUSED)]
    if xml is None:
        return report
    written = written_counts(xml, target_format)
    report.wrote, report.carried = written.kinds, written.carried
    counted = [(Category.DEFAULTED, URDF_INERTIAL_IMPLICIT, written.implicit_inertials),
               (Category.APPROXIMATED, LINK_LUMPED, written.lumped_links),
               (Category.APPROXIMATED, GAZEBO_STRUCTURE, written.from_gazebo)]
    if target_format == "urdf" and model_document is not None:
        counted += [(Category.DEFAULTED, SDF_INERTIAL_DEFAULT,
                     links_without_inertial(model_document)),
                    (Category.RESTORED, URDF_CONTENT_RESTORED, urdf_elements(model_document)
                     - by_code[Code.LINK_INERTIA_RECORD_DROPPED]),
                    (Category.REEXPRESSED, WORLD_PLACEMENT,
                     world_placed(model_document) - by_code[Code.MODEL_POSE_KEPT_IN_GAZEBO])]
    report.changes += [Change(category, what, count) for category, what, count in counted
                       if count > 0]
    return report


def top_models(model_document) -> list[Model]:
    """A document's model, or its worlds' models (not the nested ones)."""
    return [model_document.model] if model_document.model is not None else \
        [model for world in model_document.worlds for model in world.models]


def models_of(model_document) -> list[Model]:
    """Every model of a document: its model or its worlds' models, and the nested ones."""
    todo = top_models(model_document)
    models = []
    while todo:
        model = todo.pop()
        models.append(model)
        todo.extend(model.models)
    return models


def input_counts(model_document) -> dict[str, int]:
    """The input's elements per kind (links, joints, frames, visuals, collisions)."""
    counts: Counter[str] = Counter()
    for model in models_of(model_document):
        counts["links"] += len(model.links)
        counts["joints"] += len(model.joints)
        counts["frames"] += len(model.frames)
        for link in model.links:
            counts["visuals"] += len(link.visuals)
            counts["collisions"] += len(link.collisions)
    return dict(counts)


def links_without_inertial(model_document) -> int:
    """SDF links with no ``<inertial>`` (sdf2urdf writes SDFormat's default for them)."""
    return sum(link.inertial is None for model in models_of(model_document)
               for link in model.links)


def urdf_elements(model_document) -> int:
    """``urdf:`` elements (outermost) in the input's models as read: what urdf2sdf carried
    and sdf2urdf gives back (but an inertia as written that sdf2urdf drops,
    LINK_INERTIA_RECORD_DROPPED, which the caller takes off)."""
    count = 0
    for model in top_models(model_document):
        if model.xml is None:
            continue
        for element in model.xml.iter(f"{{{URDF_NS}}}*"):
            parent = element.getparent()
            count += parent is None or not str(parent.tag).startswith(f"{{{URDF_NS}}}")
    return count


def world_placed(model_document) -> int:
    """The models of the input's first world placed away from the world's origin: the
    URDF (whose root is the world) states them relative to the world, not the model
    (less those whose placement is kept in ``<gazebo>``, MODEL_POSE_KEPT_IN_GAZEBO)."""
    world = model_document.world
    return 0 if world is None else sum(model.pose.value != IDENTITY for model in world.models)


@dataclass
class Written:
    """What a written document holds, counted: elements per kind outside carried content,
    carried content by name, URDF links written as implicit massless inertials, links
    lumped."""
    kinds: dict[str, int] = field(default_factory=dict)
    carried: dict[str, int] = field(default_factory=dict)
    implicit_inertials: int = 0
    lumped_links: int = 0
    from_gazebo: int = 0


def written_counts(xml: bytes, target_format: str) -> Written:
    """Count the written document ``xml`` (an SDF or a URDF, ``target_format``)."""
    root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False, huge_tree=True,
                                                 no_network=True))
    kinds: Counter[str] = Counter()
    carried: Counter[str] = Counter()
    written = Written()
    todo = [root]
    while todo:
        element = todo.pop()
        for name in element.attrib:
            if name.startswith("{") and not name.startswith(f"{{{URDF_NS}}}"):
                carried[f"@{_prefixed(element, name)}"] += 1
        if element.get(_IMPLICIT) == "true":
            written.implicit_inertials += 1
        if element.get(_LUMPED) == "link":
            written.lumped_links += 1
        if element.get(_FROM_GAZEBO) == "true":
            written.from_gazebo += 1
        for child in element:
            if not isinstance(child.tag, str):
                continue
            if child.tag.startswith("{"):
                carried[_prefixed(child, child.tag)] += 1
            elif target_format == "urdf" and child.tag == "gazebo":
                carried["<gazebo>"] += 1
            else:
                kind = _KIND_OF_TAG.get(child.tag)
                if kind is not None:
                    kinds[kind] += 1
                todo.append(child)
    written.kinds, written.carried = dict(kinds), dict(sorted(carried.items()))
    return written


def _prefixed(element, name: str) -> str:
    """``prefix:local`` for the lxml name ``{namespace}local`` (the prefix ``element``
    declares for it, else the namespace)."""
    namespace, local = name[1:].split("}", 1)
    prefix = next((p for p, uri in element.nsmap.items() if uri == namespace and p), namespace)
    return f"{prefix}:{local}"
