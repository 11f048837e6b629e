"""The xacro expansion's child process: ``python -I -B -m urdf_sdf.cli.xacro_sandbox``.

:mod:`urdf_sdf.cli.xacro_expand` starts it for each ``*.xacro`` input the user asked
to expand (``--xacro``), with an empty environment, the input's directory as its working
directory, and one JSON request on standard input (closed once read)::

    {"input": ABSOLUTE PATH, "args": {NAME: VALUE}, "paths": [DIR...],
     "environment": {NAME: VALUE} or null, "max_bytes": N}

and reads one JSON answer on its standard output: ``{"document": EXPANDED XML, "read":
[ABSOLUTE PATH...]}`` (the files the expansion read: an output never replaces one) or
``{"error": {"code", "message", "file", "line", "column"}}``.

Before reading the request the process limits itself (:func:`limit_resources`: CPU time,
address space, no file written, no process started, few descriptors) and refuses, for
the rest of its life, whatever starts a process (:func:`refuse_new_processes`: an audit
hook, which Python code cannot remove: ``os.fork``, ``os.exec*``, ``os.posix_spawn``,
``os.system``, ``subprocess``, and the modules that fork without an audit event,
``_posixsubprocess``, ``ctypes``, ``_multiprocessing``). The kernel does not hold a
process of the root user to ``RLIMIT_NPROC``, so run as root the hook alone stops a fork
bomb; the evaluator below, which calls no such function, comes first either way. Then,
in this process only, it replaces what in the ``xacro`` package reaches beyond the
document:

* every ``${...}`` and ``$(eval ...)`` expression is evaluated by
  :class:`urdf_sdf.cli.xacro_evaluator.Evaluator` over a symbol table of our own
  (:func:`global_symbols`), never Python's ``eval``; a refused expression is
  ``XACRO_UNSAFE``. The functions it may call: ``abs``, ``min``, ``max``, ``round``,
  ``int``, ``float``, ``str``, ``len``, ``bool``, ``list``, ``dict``, ``tuple``, ``set``,
  ``sorted``, ``sum``, ``any``, ``all``, ``range``, ``pow``, ``divmod``, ``ord``, ``chr``,
  ``map``, ``filter``, ``zip``, ``enumerate``, ``reversed`` (also as ``python.NAME``);
  every function and constant of ``math`` but ``factorial``, ``comb``, ``perm``,
  ``prod`` and ``lcm`` (also as ``math.NAME``); ``xacro.load_yaml``, ``xacro.arg``,
  ``xacro.dotify``, ``xacro.abs_filename``, ``xacro.tokenize``, ``xacro.fatal`` and the
  message functions (silent); in ``$(eval)`` also ``arg``, ``dirname``, ``find``,
  ``env`` and ``optenv``;
* every file (the input, ``xacro:include``, ``load_yaml``) is read through
  :class:`urdf_sdf.cli.xacro_files.Files` (the package root and the user's
  directories only), and an included file with a DTD is refused as the input is
  (``XML_UNSAFE``);
* ``$(env NAME)`` and ``$(optenv NAME ...)`` read the request's ``environment``, and are
  ``XACRO_UNSAFE`` without one (no ``--xacro-env``); ``$(find PKG)`` is
  :meth:`~urdf_sdf.cli.xacro_files.Files.find` (``packages``: ``--package NAME=DIR``),
  and so is the package of an include's ``package://PKG/PATH``; ``$(arg NAME)`` reads
  ``args``.

A refusal names the file holding the offending text and, found by searching that file's
elements for it, its line. Importing this module changes nothing: only :func:`main` does.
"""
from __future__ import annotations

import json
import os
import re
import sys
import xml.dom.minidom
from collections.abc import Callable
from types import ModuleType
from typing import Any, NoReturn

from lxml import etree

from urdf_sdf.cli.xacro_evaluator import SAFE_BUILTINS, Evaluator, Refused, safe_math
from urdf_sdf.cli.xacro_files import FileRefused, Files
from urdf_sdf.core.read.xmlio import unsafe_doctype

CPU_SECONDS = 60
ADDRESS_SPACE = 2 << 30
OPEN_FILES = 64


class IncludeUnsafe(Exception):
    """An included file with a DTD (XML_UNSAFE, as for the input)."""

    def __init__(self, file: str, line: int):
        super().__init__(f"{file} declares a DTD; included files may not")
        self.file, self.line = file, line


def limit_resources(cpu_seconds: int = CPU_SECONDS) -> None:
    """Limit this process: CPU time, address space, no file written (a file size of 0),
    no process started, few descriptors, no core dump. Limits a platform lacks are
    skipped."""
    try:
        import resource
    except ImportError:  # not a POSIX system: the wall-clock limit alone holds
        return
    limits = {"RLIMIT_CPU": (cpu_seconds, cpu_seconds + 1), "RLIMIT_AS": ADDRESS_SPACE,
              "RLIMIT_FSIZE": 0, "RLIMIT_NPROC": 0, "RLIMIT_NOFILE": OPEN_FILES,
              "RLIMIT_CORE": 0}
    for name, value in limits.items():
        kind = getattr(resource, name, None)
        if kind is None:
            continue
        soft, hard = value if isinstance(value, tuple) else (value, value)
        _, current_hard = resource.getrlimit(kind)
        if current_hard != resource.RLIM_INFINITY:
            soft, hard = min(soft, current_hard), min(hard, current_hard)
        try:
            resource.setrlimit(kind, (soft, hard))
        except (ValueError, OSError):
            pass


# What starts a process, as Python's audit events (``sys.addaudithook``) name it, and the
# modules that can start one without an event (imported only once the hook is in place).
PROCESS_EVENTS = frozenset({"os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn",
                            "os.system", "subprocess.Popen", "ctypes.dlopen", "ctypes.dlsym",
                            "ctypes.dlsym/handle"})
PROCESS_MODULES = frozenset({"_posixsubprocess", "ctypes", "_ctypes", "_multiprocessing"})


class ProcessRefused(PermissionError):
    """Something in the child tried to start a process (or import what starts one)."""


def refuse_new_processes() -> None:
    """From now on, nothing in this process starts another: every event of
    :data:`PROCESS_EVENTS` and every import of :data:`PROCESS_MODULES` raises
    :class:`ProcessRefused`. An audit hook stays for the life of the process (Python code
    cannot remove it) and holds for the root user, whom ``RLIMIT_NPROC`` does not."""
    sys.addaudithook(_refused_if_it_starts_a_process)


def _refused_if_it_starts_a_process(event: str, args: tuple) -> None:
    if event in PROCESS_EVENTS or (event == "import" and args and
                                   str(args[0]).partition(".")[0] in PROCESS_MODULES):
        raise ProcessRefused(f"the xacro expansion may not start a process ({event})")


def global_symbols(xacro: ModuleType, files: Files) -> dict[str, Any]:
    """The symbol table expressions see: xacro's names, each bound to something safe."""
    math = safe_math()

    def load_yaml(filename: str) -> Any:
        return _load_yaml(xacro, files, filename)

    def arg(name: str) -> Any:  # the --xacro-arg values and the <xacro:arg> defaults
        return xacro.substitution_args_context["arg"][name]

    def fatal(*parts: object) -> NoReturn:
        raise xacro.XacroException(" ".join(map(str, parts)))

    def quiet(*parts: object, **options: object) -> str:
        return ""

    symbols: dict[str, Any] = dict(SAFE_BUILTINS)
    symbols.update({"True": True, "False": False})
    symbols.update(math)
    symbols["math"] = xacro.NameSpace()
    symbols["math"].update(math)
    symbols["python"] = xacro.NameSpace()
    symbols["python"].update(SAFE_BUILTINS)
    symbols["python"].update({"True": True, "False": False})
    helpers = {"load_yaml": load_yaml, "abs_filename": xacro.abs_filename_spec,
               "dotify": xacro.YamlDictWrapper, "arg": arg, "fatal": fatal,
               "tokenize": _tokenize, "message": quiet, "warning": quiet,
               "error": quiet, "print_location": quiet}
    symbols["xacro"] = xacro.NameSpace()
    symbols["xacro"].update(helpers)
    symbols.update({name: helpers[name] for name in ("load_yaml", "abs_filename", "dotify")})
    return symbols


def _tokenize(text: str, sep: str = ",; ", skip_empty: bool = True) -> list[str]:
    """xacro's ``tokenize``, its separators escaped (xacro builds a regular expression from
    them, which a file could make backtrack for ever)."""
    results = re.split(f"[{re.escape(sep)}]", str(text))
    return [item for item in results if item] if skip_empty else results


def callables(symbols: dict[str, Any]) -> list[Callable]:
    """Every function of the symbol table (the evaluator calls these and no other)."""
    found = [v for v in symbols.values() if callable(v)]
    for name in ("math", "python", "xacro"):
        found.extend(v for v in symbols[name].values() if callable(v))
    return found


def _load_yaml(xacro: ModuleType, files: Files, filename: object) -> Any:
    import yaml  # type: ignore[import-untyped]  # PyYAML ships no type information
    for unit in xacro.ConstructUnits:
        yaml.SafeLoader.add_constructor(unit.value.tag, unit.constructor)
    path = xacro.abs_filename_spec(str(filename))
    data = files.read_file(path, None)
    xacro.filestack.append(path)
    try:
        return xacro.YamlListWrapper.wrap(yaml.safe_load(data))
    finally:
        xacro.filestack.pop()
        xacro.all_includes.append(path)


def install(xacro, files: Files, environment: dict[str, str] | None) -> Evaluator:
    """Replace what in ``xacro`` evaluates expressions, reads files or the environment."""
    from xacro import substitution_args  # type: ignore[import-untyped]  # xacro: no types

    symbols = global_symbols(xacro, files)
    evaluator = Evaluator(callables(symbols), (xacro.NameSpace, xacro.YamlDictWrapper))
    xacro._global_symbols = symbols
    xacro.load_yaml = symbols["xacro"]["load_yaml"]  # the original opens any file
    xacro.safe_eval = lambda expression, symbols, _locals=None: \
        evaluator.evaluate(expression, symbols)
    original_parse, original_include = xacro.parse, xacro.process_include

    def parse(inp, filename=None):  # xacro.parse: the file's name when ``inp`` is None
        if inp is not None:
            return original_parse(inp, filename)
        try:
            data = files.read_file(filename)
        except FileRefused:
            raise
        except OSError as exc:  # missing: xacro's own error (an optional include skips it)
            xacro.filestack.pop()
            raise xacro.XacroException(f"{exc.strerror}: {filename}", exc=exc) from None
        unsafe = unsafe_doctype(data)
        if unsafe is not None:
            raise IncludeUnsafe(filename, unsafe[0])
        return xml.dom.minidom.parseString(data)

    def process_include(elt: xml.dom.minidom.Element, macros: object, symbols: object,
                        func: object) -> object:
        holder = xacro.filestack[-1] if xacro.filestack else None
        try:
            return original_include(elt, macros, symbols, func)
        except FileRefused as exc:
            exc.expression = elt.getAttribute("filename")
            exc.holder = holder
            raise

    def glob(pattern: str) -> list[str]:
        files.check(os.path.dirname(pattern.split("*")[0].split("?")[0].split("[")[0]),
                    pattern)
        import glob as globbing
        return globbing.glob(pattern)

    original_absolute = xacro.abs_filename_spec

    def abs_filename_spec(spec: str) -> str:  # package://PKG/PATH is $(find PKG)/PATH
        try:
            return original_absolute(files.local_path(spec))
        except LookupError as exc:
            raise xacro.XacroException(str(exc)) from None

    xacro.parse, xacro.process_include = parse, process_include
    xacro.abs_filename_spec = abs_filename_spec
    xacro.glob = type("Glob", (), {"glob": staticmethod(glob)})
    _install_substitutions(substitution_args, evaluator, files, environment)
    return evaluator


def _install_substitutions(substitution_args, evaluator: Evaluator, files: Files,
                           environment: dict[str, str] | None) -> None:
    """``$(env)``, ``$(optenv)``, ``$(find)`` and ``$(eval)`` of ``substitution_args``."""
    def read_environment(text: str, name: str, default: str | None) -> str:
        if environment is None:
            raise Refused("the file reads the environment; give --xacro-env to allow it",
                          text)
        if name in environment:
            return environment[name]
        if default is None:
            raise substitution_args.SubstitutionException(
                f"environment variable {name} is not set")
        return default

    def env(resolved: str, a: str, arguments: list[str], context: object) -> str:
        if len(arguments) != 1:
            raise substitution_args.SubstitutionException(
                f"$(env var) command only accepts one argument [{a}]")
        return resolved.replace(f"$({a})", read_environment(f"$({a})", arguments[0], None))

    def optenv(resolved: str, a: str, arguments: list[str], context: object) -> str:
        if not arguments:
            raise substitution_args.SubstitutionException(
                f"$(optenv var) must specify an environment variable [{a}]")
        value = read_environment(f"$({a})", arguments[0], " ".join(arguments[1:]))
        return resolved.replace(f"$({a})", value)

    def find(package: str) -> str:
        try:
            return files.find(package)
        except LookupError as exc:
            raise substitution_args.SubstitutionException(str(exc)) from None

    contexts: list[dict] = [{}]  # the context of the $(eval) being evaluated
    names = _eval_names(substitution_args, contexts, find, read_environment)
    evaluator.allow(v for v in names.values() if callable(v))

    def evaluate(text: str, context: dict) -> str:
        contexts[-1] = context
        scope = _EvalScope(names, context.get("arg", {}), substitution_args.convert_value)
        return str(evaluator.evaluate(text, scope))

    substitution_args._env, substitution_args._optenv = env, optenv
    substitution_args._eval_find, substitution_args._eval = find, evaluate


def _eval_names(substitution_args: ModuleType, contexts: list[dict],
                find: Callable[[str], str],
                read_environment: Callable[[str, str, str | None], str]) -> dict[str, Any]:
    """The names of ``$(eval ...)``: roslaunch's (arg, dirname, env, optenv, find, the
    safe builtins, math, true/false); ``contexts[-1]``: the substitution context."""
    def arg(name: str) -> Any:
        return substitution_args.convert_value(contexts[-1].get("arg", {})[name], "auto")

    def dirname() -> str:
        return substitution_args._eval_dirname(contexts[-1].get("filename"))

    names: dict[str, Any] = dict(SAFE_BUILTINS)
    names.update(safe_math())
    names.update({"true": True, "false": False, "True": True, "False": False, "arg": arg,
                  "dirname": dirname, "find": find,
                  "env": lambda name: read_environment(f"env({name!r})", name, None),
                  "optenv": lambda name, default="": read_environment(
                      f"optenv({name!r})", name, default)})
    return names


class _EvalScope(dict):
    """``$(eval)``'s names: functions first, then the arguments (typed as roslaunch
    types them)."""

    def __init__(self, names: dict[str, Any], arguments: dict[str, str],
                 convert: Callable[[str, str], Any]):
        super().__init__(names)
        self.arguments, self.convert = arguments, convert

    def __getitem__(self, key: str) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self.convert(self.arguments[key], "auto")


# ---- the answer --------------------------------------------------------------------------------

def expand(request: dict) -> dict:
    """Expand the request's input; the answer (see the module's docstring)."""
    try:
        import xacro
    except ImportError:
        return _error("XACRO_UNAVAILABLE", "cannot expand a xacro file: the 'xacro' Python "
                      "package is not installed", request["input"])
    input_file = request["input"]
    files = Files(input_file, request.get("paths", []), request.get("environment"),
                  request["max_bytes"], request.get("packages"))
    install(xacro, files, request.get("environment"))
    from xml.parsers.expat import ExpatError
    try:
        document = xacro.process_file(input_file, mappings=dict(request.get("args") or {}),
                                      verbosity=0)
        text = document.toprettyxml(indent="  ", encoding="utf-8")
    except ExpatError as exc:
        where = _current_file(xacro) or input_file
        line = getattr(exc, "lineno", None) or None
        offset = getattr(exc, "offset", None)
        return _error("XACRO_ERROR", f"xacro: malformed XML: {_expat_message(exc)}", where,
                      line, offset + 1 if line and offset is not None else None)
    except (Exception, SystemExit) as exc:
        return _failure(xacro, files, input_file, exc)
    if len(text) > request["max_bytes"]:
        return _error("XACRO_ERROR", f"xacro: the expanded document is larger than "
                      f"{request['max_bytes']} bytes", input_file)
    return {"document": text.decode("utf-8"),
            "read": sorted(os.path.abspath(path) for path in files.read)}


def _failure(xacro: ModuleType, files: Files, input_file: str, exc: BaseException) -> dict:
    """The answer for an expansion that raised ``exc``: a refusal (XACRO_UNSAFE, or
    XML_UNSAFE for an included DTD) where it was found, else XACRO_ERROR."""
    cause = _cause(exc)
    if isinstance(cause, IncludeUnsafe):
        return _error("XML_UNSAFE", f"xacro: {cause}", cause.file, cause.line)
    if isinstance(cause, Refused):
        holder = getattr(cause, "holder", None)
        file, line = _locate(files, cause.expression, holder, _current_file(xacro),
                             input_file)
        what = f" (in {cause.expression!r})" if cause.expression else ""
        return _error("XACRO_UNSAFE", f"xacro: refused: {cause}{what}", file, line)
    message = " ".join(str(exc).split()) or repr(exc)
    where = _current_file(xacro)
    if where and where != input_file:
        message += f" (in {where}, included from {input_file})"
    return _error("XACRO_ERROR", f"xacro: {message}", input_file)


def _cause(exc: BaseException) -> BaseException:
    """The refusal behind ``exc`` (xacro wraps exceptions in XacroException.exc), or
    ``exc``."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, (Refused, IncludeUnsafe)):
            return current
        seen.add(id(current))
        current = getattr(current, "exc", None) or current.__cause__ or current.__context__
    return exc


def _locate(files: Files, needle: str | None, holder: str | None, current: str | None,
            input_file: str) -> tuple[str, int | None]:
    """The file and line of the element holding ``needle``: searched in ``holder`` (the
    file naming a refused include), then the file being expanded, then every file read."""
    candidates = [f for f in (holder, current) if f] + list(files.read) + [input_file]
    for file in dict.fromkeys(candidates):
        data = files.read.get(file)
        line = _line_of(data, needle) if data is not None and needle else None
        if line is not None:
            return file, line
    return holder or current or input_file, None


def _line_of(data: bytes, needle: str) -> int | None:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, recover=True)
    try:
        root = etree.fromstring(data, parser)
    except (etree.XMLSyntaxError, ValueError):
        return None
    if root is None:
        return None
    for element in root.iter():
        texts = [element.text or "", element.tail or ""]
        if isinstance(element.tag, str):
            texts.extend(element.attrib.values())
        if any(needle in text for text in texts):
            return element.sourceline
    return None


def _current_file(xacro: ModuleType) -> str | None:
    stack = getattr(xacro, "filestack", None) or []
    return next((str(f) for f in reversed(stack) if f), None)


def _expat_message(exc: Exception) -> str:
    from xml.parsers.expat import ErrorString
    code = getattr(exc, "code", None)
    return ErrorString(code) if code is not None else str(exc)


def _error(code: str, message: str, file: str | None, line: int | None = None,
           column: int | None = None) -> dict:
    return {"error": {"code": code, "message": message, "file": file, "line": line,
                      "column": column}}


def main() -> None:
    """The child process's body: limits, the request, the expansion, the answer."""
    limit_resources()
    refuse_new_processes()
    request = json.loads(sys.stdin.buffer.read())
    sys.stdin.close()
    try:
        os.close(0)  # nothing more is read from the parent
    except OSError:
        pass
    try:
        answer = expand(request)
    except (Exception, SystemExit, RecursionError, MemoryError) as exc:
        answer = _error("XACRO_ERROR", f"xacro: {type(exc).__name__}: {exc}",
                        request.get("input"))
    sys.stdout.buffer.write(json.dumps(answer).encode("ascii"))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
