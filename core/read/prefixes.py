"""Namespace prefixes a document uses without declaring them: the one rule for every
reader and writer.

libsdformat, urdfdom and Drake (all on TinyXML2) read ``<drake:collision_filter_group>``
or ``drake:acceleration="3"`` without a declaration of ``drake``; lxml reads such a
document only in recovery mode (``core.read.xmlio``), keeping ``drake:NAME`` as the
local name, which no lxml element or attribute may be given again. The name gets the
prefix declared with a placeholder namespace, ``urn:urdf-sdf:undeclared:PREFIX``, and a
NAMESPACE_UNDECLARED warning: the URDF reader does it to the tree it reads (so that
urdf2sdf can carry such content), ``sdf2urdf`` and ``urdf-sdf print`` to the tree they
write.

A URDF whose ``<robot>`` declares a default namespace (``xmlns="http://drake.mit.edu"``)
is read as urdfdom, Drake and MuJoCo read it, by element names: its unprefixed elements
are given their plain names (:func:`ignore_default_namespace`), with a
URDF_DEFAULT_NAMESPACE warning.

A name in a message is written as the file writes it, ``drake:rotor_inertia`` (never
lxml's ``{http://drake.mit.edu}rotor_inertia``): :func:`tag_of` an element,
:func:`prefixed_name` of an attribute.
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of

UNDECLARED_URI = "urn:urdf-sdf:undeclared:"


def ignore_default_namespace(root, file: str | None, diagnostics: Diagnostics) -> None:
    """Give the unprefixed elements of a ``<robot>`` in a default namespace their plain
    names (prefixed ones, ``<drake:joint>``, keep theirs even in the same namespace)."""
    uri = root.nsmap.get(None)
    if uri is None or root.tag != f"{{{uri}}}robot":
        return
    qualified = f"{{{uri}}}"
    for el in root.iter(f"{qualified}*"):
        if el.prefix is None:
            el.tag = el.tag[len(qualified):]
    etree.cleanup_namespaces(root)
    diagnostics.warning_at(Code.URDF_DEFAULT_NAMESPACE, f"<robot> declares the default "
                           f"namespace {uri}, which URDF does not define: its elements are "
                           "read as URDF's, as urdfdom, Drake and MuJoCo read them, and the "
                           "namespace is left out of the output", source_of(root, file), file)


def has_undeclared_prefixes(root) -> bool:
    """Whether :func:`declare_undeclared_prefixes` has anything to do in ``root``'s tree:
    an element or attribute whose name has a prefix no namespace declaration gave (read
    leniently, the parser keeps ``prefix:local`` as its local name).

    A loop over the names rather than the XPath ``//*[contains(local-name(), ':')]``:
    the XPath builds a string per node and is 2-3 times slower."""
    for el in root.iter(etree.Element):
        if has_prefixed_local_name(el.tag):
            return True
        names = el.keys()
        if names and ":" in "".join(names):  # most elements: no colon in any name
            if any(has_prefixed_local_name(name) for name in names):
                return True
    return False


def has_prefixed_local_name(name: str) -> bool:
    """``prefix:local`` or ``{uri}prefix:local`` (a ``{uri}`` holds colons of its own)."""
    return ":" in name and ":" in name.rpartition("}")[2]


def declare_undeclared_prefixes(root, file: str | None, diagnostics: Diagnostics) -> None:
    """Make the output well-formed where the input was not: a custom element or attribute
    whose prefix was never declared (``<my_ns:custom_sensor/>``, read leniently as
    libsdformat does) gets the prefix declared on ``root`` with a placeholder namespace,
    ``urn:urdf-sdf:undeclared:PREFIX``, and a warning; a name that cannot be made a
    qualified name at all (``a:b:c``) is dropped with a warning."""
    if not has_undeclared_prefixes(root):
        return
    declared: dict[str, str] = {}
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            continue
        if not el.tag.startswith("{") and ":" in el.tag:
            qualified = qualified_name(el.tag, declared)
            if qualified is None:
                diagnostics.warning_at(Code.NAMESPACE_PREFIX_INVALID,
                                       f"element <{el.tag}> has no valid "
                                       "namespace prefix: left out of the output",
                                       source_of(el, file))
                el.getparent().remove(el)
                continue
            el.tag = qualified
        for name in [n for n in el.attrib if not n.startswith("{") and ":" in n]:
            value = el.attrib.pop(name)
            qualified = qualified_name(name, declared)
            if qualified is not None:
                el.set(qualified, value)
    for prefix, uri in declared.items():
        diagnostics.warning(Code.NAMESPACE_UNDECLARED,
                            f"namespace prefix [{prefix}] is used but never "
                            f"declared; the output declares xmlns:{prefix}=\"{uri}\"", file)
    if declared:
        etree.cleanup_namespaces(root, top_nsmap=declared)


def qualified_name(name: str, declared: dict[str, str]) -> str | None:
    """``{placeholder-uri}local`` for ``prefix:local``, or None when it is not a valid
    qualified name."""
    prefix, _, local = name.partition(":")
    try:
        etree.QName(None, local)
        etree.QName(None, prefix)
    except ValueError:
        return None
    if ":" in local or prefix.lower().startswith("xml"):
        return None
    uri = declared.setdefault(prefix, UNDECLARED_URI + prefix)
    return f"{{{uri}}}{local}"


def namespaced(name: str) -> str | None:
    """``{uri}local`` of a namespaced attribute name (a prefix the file never declared, read
    leniently, names ``urn:urdf-sdf:undeclared:PREFIX``); None for one in no namespace."""
    if name[0] == "{":
        return name
    return qualified_name(name, {}) if ":" in name else None


def prefixed_name(name: str, el) -> str:
    """``name`` (an element's tag or an attribute's name, ``{uri}local`` when namespaced)
    as the file writes it, ``prefix:local`` (``local`` in a default namespace), for
    messages (``el``: the element the name is on, whose declarations give the prefix)."""
    if not name.startswith("{"):
        return name
    uri, _, local = name[1:].partition("}")
    prefixes = [prefix for prefix, declared in el.nsmap.items() if declared == uri]
    if any(prefixes):
        return f"{next(p for p in prefixes if p)}:{local}"
    return local if prefixes and el.tag == name else name


def tag_of(el) -> str:
    """``el``'s tag as the file writes it (``drake:rotor_inertia``, not
    ``{http://drake.mit.edu}rotor_inertia``): every message that names an element uses it."""
    return prefixed_name(el.tag, el) if isinstance(el.tag, str) else str(el.tag)
