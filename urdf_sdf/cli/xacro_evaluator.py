"""The restricted evaluator of xacro expressions (``${...}`` and ``$(eval ...)``).

xacro evaluates expressions with Python's ``eval`` behind a name filter that a file can
climb around (``xacro.load_yaml.__globals__['os']``); this evaluator replaces it inside
the expansion's child process (:mod:`urdf_sdf.cli.xacro_sandbox`). It walks the
expression's ``ast`` and allows only:

* literals (numbers, strings, ``True``/``False``/``None``), list, tuple, dict and set
  displays, f-strings, subscripts and slices;
* names looked up in the symbol table it is given (never one starting with ``__``);
* arithmetic, comparison, boolean and conditional expressions, list comprehensions and
  generator expressions (evaluated to lists);
* attribute access only on a namespace (``math.pi``, ``xacro.load_yaml``, a property
  namespace, a ``load_yaml`` dictionary: item lookup, never a Python attribute) and a
  few methods of ``str``, ``list`` and ``dict`` (:data:`METHODS`); never a name starting
  with ``_``;
* calls of the functions the caller lists (``callables``: the whitelist, by identity)
  and of those methods, with no function among their arguments but whitelisted ones.

Anything else (lambda, ``:=``, attribute access on other objects, a call of anything
else, ``str.format``) raises :class:`Refused`. So do results that would exhaust the
process: an integer over :data:`MAX_INT_BITS` bits, a string or sequence over
:data:`MAX_LENGTH` items, a format width over :data:`MAX_WIDTH`, an expression over
:data:`MAX_SOURCE` characters or :data:`MAX_STEPS` evaluation steps (a node evaluated,
or an item of a list handed to a function).
"""
from __future__ import annotations

import ast
import builtins
import operator
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

MAX_SOURCE = 10_000          # characters of one expression
MAX_STEPS = 1_000_000        # nodes evaluated, and items handed to a call, per expression
MAX_LENGTH = 1_000_000       # items of a str, list, tuple, dict or set
MAX_INT_BITS = 65_536        # bits of an integer
MAX_WIDTH = 1_000            # a width or precision in a format
# math: every function and constant but those whose cost grows with their argument.
UNBOUNDED_MATH = frozenset({"factorial", "comb", "perm", "prod", "lcm"})


class Refused(Exception):
    """An expression the restricted evaluator does not evaluate; ``expression`` is its
    text, set by :func:`evaluate` when the refusal comes from deeper down."""

    def __init__(self, message: str, expression: str | None = None):
        super().__init__(message)
        self.expression = expression


class Method:
    """A bound method of :data:`METHODS` (the only kind of bound method an expression
    can hold)."""

    __slots__ = ("function",)

    def __init__(self, function: Callable):
        self.function = function

    def __repr__(self) -> str:
        return f"<method {getattr(self.function, '__name__', '?')}>"


def _bounded_replace(text: str, old: str, new: str, count: int = -1) -> str:
    occurrences = text.count(old) if old else len(text) + 1
    if count >= 0:
        occurrences = min(occurrences, count)
    _check_length(len(text) + occurrences * max(0, len(new) - len(old)))
    return text.replace(old, new, count)


def _bounded_join(separator: str, items: Iterable) -> str:
    items = list(items)
    _check_length(len(items))
    _check_length(sum(len(i) if isinstance(i, str) else 0 for i in items)
                  + len(separator) * len(items))
    return separator.join(items)


# The methods an expression may call, by the type of the object (none formats, pads or
# reaches another object's attributes).
METHODS: dict[type, dict[str, Callable]] = {
    str: {name: getattr(str, name) for name in (
        "lower", "upper", "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines",
        "startswith", "endswith", "find", "rfind", "index", "rindex", "count", "isdigit",
        "isalpha", "isalnum", "isspace", "islower", "isupper", "title", "capitalize",
        "partition", "rpartition", "casefold", "swapcase")}
    | {"replace": _bounded_replace, "join": _bounded_join},
    list: {"index": list.index, "count": list.count},
    tuple: {"index": tuple.index, "count": tuple.count},
    dict: {"keys": lambda d: list(d.keys()), "values": lambda d: list(d.values()),
           "items": lambda d: list(d.items()), "get": dict.get},
}

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_,
    ast.Invert: operator.invert,
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_,
    ast.IsNot: operator.is_not, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_PYTHON_BUILTINS = frozenset(vars(builtins))
_PLAIN = (bool, int, float, str, type(None))
_SIZED = (str, bytes, list, tuple, dict, set, frozenset)
# In a %-format: the flags, width and precision of one conversion.
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")
_DIGITS = re.compile(r"\d+")


def _check_length(length: int) -> None:
    if length > MAX_LENGTH:
        raise Refused(f"the result would hold more than {MAX_LENGTH} items")


def _check_result(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and \
            value.bit_length() > MAX_INT_BITS:
        raise Refused(f"the result would be an integer over {MAX_INT_BITS} bits")
    if isinstance(value, _SIZED):
        _check_length(len(value))
    return value


def _check_format_spec(spec: str) -> None:
    if "*" in spec or any(int(d) > MAX_WIDTH for d in _DIGITS.findall(spec)):
        raise Refused(f"a format width or precision over {MAX_WIDTH}")


def _check_binary(op: type, left: Any, right: Any) -> None:
    """Refuse an operation whose result alone would exhaust the process, before it runs."""
    ints = all(isinstance(v, int) for v in (left, right))
    if op is ast.Pow and ints and right > 0 and abs(left) > 1 and \
            abs(left).bit_length() * right > MAX_INT_BITS:
        raise Refused(f"the result would be an integer over {MAX_INT_BITS} bits")
    if op is ast.LShift and ints and right > MAX_INT_BITS:
        raise Refused(f"the result would be an integer over {MAX_INT_BITS} bits")
    if op is ast.Mult:
        for sequence, count in ((left, right), (right, left)):
            if isinstance(sequence, _SIZED) and isinstance(count, int):
                _check_length(len(sequence) * max(count, 0))
    if op is ast.Mod and isinstance(left, str):
        for match in _PERCENT.finditer(left):
            _check_format_spec(match.group(0)[1:])


class Evaluator:
    """Evaluate expressions over ``symbols`` (any mapping: xacro's symbol table), calling
    only the functions in ``callables`` (compared by identity) and :data:`METHODS`;
    ``namespaces``: the types whose attributes are their items (``math.pi``)."""

    def __init__(self, callables: Iterable[Callable], namespaces: tuple[type, ...] = ()):
        self._callables = {id(f): f for f in callables}
        self._namespaces = namespaces
        self._steps = 0

    def evaluate(self, expression: str, symbols: Mapping[str, Any]) -> Any:
        """The value of ``expression``; raises :class:`Refused` for what is not allowed,
        and the ordinary exceptions (NameError, TypeError, ZeroDivisionError...) of an
        expression that is allowed but fails."""
        text = expression.strip()
        if len(text) > MAX_SOURCE:
            raise Refused(f"the expression is longer than {MAX_SOURCE} characters", text)
        try:
            tree = ast.parse(text, mode="eval")
        except (RecursionError, MemoryError):
            raise Refused("the expression is nested too deeply", text) from None
        outer_steps, self._steps = self._steps, 0  # a property evaluated inside: its own
        try:
            return _check_result(self._eval(tree.body, symbols))
        except Refused as exc:
            exc.expression = exc.expression or text
            raise
        except RecursionError:
            raise Refused("the expression is nested too deeply", text) from None
        finally:
            self._steps = outer_steps

    def allow(self, functions: Iterable[Callable]) -> None:
        """Whitelist ``functions`` too (kept referenced: an id is never reused)."""
        self._callables.update((id(f), f) for f in functions)

    def allows_call(self, function: Any) -> bool:
        return isinstance(function, Method) or id(function) in self._callables

    # ---- the nodes -----------------------------------------------------------------------

    def _charge(self, steps: int) -> None:
        self._steps += steps
        if self._steps > MAX_STEPS:
            raise Refused(f"the expression takes more than {MAX_STEPS} steps")

    def _eval(self, node: ast.AST, scope: Mapping[str, Any]) -> Any:
        self._charge(1)
        handler = getattr(self, "_" + type(node).__name__, None)
        if handler is None:
            raise Refused(f"{type(node).__name__} is not allowed in an expression")
        return handler(node, scope)

    def _Constant(self, node: ast.Constant, scope) -> Any:
        if not isinstance(node.value, _PLAIN):
            raise Refused(f"a {type(node.value).__name__} literal is not allowed")
        return node.value

    def _Name(self, node: ast.Name, scope) -> Any:
        if node.id.startswith("__"):
            raise Refused(f"the name {node.id} is not allowed")
        try:
            return scope[node.id]
        except KeyError:
            if node.id in _PYTHON_BUILTINS:  # exec, open, getattr...: not an undefined name
                raise Refused(f"the Python builtin {node.id} is not allowed") from None
            if node.id in UNBOUNDED_MATH:
                raise Refused(f"math's {node.id} is not allowed (unbounded cost)") from None
            raise NameError(f"name '{node.id}' is not defined") from None

    def _Attribute(self, node: ast.Attribute, scope) -> Any:
        if node.attr.startswith("_"):
            raise Refused(f"the attribute {node.attr} is not allowed")
        value = self._eval(node.value, scope)
        if isinstance(value, self._namespaces):
            try:
                return value[node.attr]  # type: ignore[index]
            except KeyError:
                if node.attr in UNBOUNDED_MATH:
                    raise Refused(f"math's {node.attr} is not allowed (unbounded cost)") \
                        from None
                raise NameError(f"name '{node.attr}' is not defined") from None
        method = METHODS.get(type(value), {}).get(node.attr)
        if method is None:
            raise Refused(f"the attribute {node.attr} of a {type(value).__name__} is not "
                          "allowed")
        return Method(lambda *args, **kwargs: method(value, *args, **kwargs))

    def _Call(self, node: ast.Call, scope) -> Any:
        function = self._eval(node.func, scope)
        if not self.allows_call(function):
            raise Refused(f"calling {_describe(function)} is not allowed")
        args: list = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.extend(self._iterable(self._eval(arg.value, scope)))
            else:
                args.append(self._eval(arg, scope))
        kwargs = {}
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg.startswith("_"):
                raise Refused("keyword arguments by ** or starting with _ are not allowed")
            kwargs[keyword.arg] = self._eval(keyword.value, scope)
        for value in (*args, *kwargs.values()):
            if callable(value) and not self.allows_call(value):
                raise Refused(f"passing {_describe(value)} to a function is not allowed")
            if isinstance(value, _SIZED + (range,)):
                self._charge(len(value))  # what a call does costs as much as its items
        target = function.function if isinstance(function, Method) else function
        return _check_result(target(*args, **kwargs))

    def _BinOp(self, node: ast.BinOp, scope) -> Any:
        op = _BINARY.get(type(node.op))
        if op is None:
            raise Refused(f"the operator {type(node.op).__name__} is not allowed")
        left, right = self._eval(node.left, scope), self._eval(node.right, scope)
        _check_binary(type(node.op), left, right)
        return _check_result(op(left, right))

    def _UnaryOp(self, node: ast.UnaryOp, scope) -> Any:
        return _UNARY[type(node.op)](self._eval(node.operand, scope))

    def _BoolOp(self, node: ast.BoolOp, scope) -> Any:
        value = None
        for operand in node.values:
            value = self._eval(operand, scope)
            if isinstance(node.op, ast.And) and not value:
                return value
            if isinstance(node.op, ast.Or) and value:
                return value
        return value

    def _Compare(self, node: ast.Compare, scope) -> Any:
        left = self._eval(node.left, scope)
        for op, comparator in zip(node.ops, node.comparators):
            right = self._eval(comparator, scope)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def _IfExp(self, node: ast.IfExp, scope) -> Any:
        return self._eval(node.body if self._eval(node.test, scope) else node.orelse, scope)

    def _List(self, node: ast.List, scope) -> list:
        return _check_result(self._items(node.elts, scope))

    def _Tuple(self, node: ast.Tuple, scope) -> tuple:
        return tuple(self._List(node, scope))  # type: ignore[arg-type]

    def _Set(self, node: ast.Set, scope) -> set:
        return set(self._items(node.elts, scope))

    def _Dict(self, node: ast.Dict, scope) -> dict:
        result = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                result.update(self._mapping(self._eval(value, scope)))
            else:
                result[self._eval(key, scope)] = self._eval(value, scope)
        return _check_result(result)

    def _Subscript(self, node: ast.Subscript, scope) -> Any:
        value = self._eval(node.value, scope)
        index = self._eval(node.slice, scope)
        if not isinstance(value, _SIZED + self._namespaces + (range,)):
            raise Refused(f"indexing a {type(value).__name__} is not allowed")
        return value[index]  # type: ignore[index]

    def _Slice(self, node: ast.Slice, scope) -> slice:
        parts = [None if part is None else self._eval(part, scope)
                 for part in (node.lower, node.upper, node.step)]
        if not all(part is None or isinstance(part, int) for part in parts):
            raise Refused("a slice takes integers")
        return slice(*parts)

    def _JoinedStr(self, node: ast.JoinedStr, scope) -> str:
        return _check_result("".join(str(self._eval(value, scope)) for value in node.values))

    def _FormattedValue(self, node: ast.FormattedValue, scope) -> str:
        value = self._eval(node.value, scope)
        if not isinstance(value, _PLAIN):
            raise Refused(f"formatting a {type(value).__name__} is not allowed")
        if node.conversion == ord("r"):
            value = repr(value)
        elif node.conversion in (ord("s"), ord("a")):
            value = str(value) if node.conversion == ord("s") else ascii(value)
        spec = "" if node.format_spec is None else self._eval(node.format_spec, scope)
        _check_format_spec(spec)
        return format(value, spec)

    def _ListComp(self, node: ast.ListComp, scope) -> list:
        results: list = []
        self._comprehend(node.generators, dict(_flat(scope)), scope,
                         lambda inner: results.append(self._eval(node.elt, inner)))
        return _check_result(results)

    _GeneratorExp = _ListComp

    # ---- helpers ---------------------------------------------------------------------------

    def _comprehend(self, generators, local: dict, scope, emit) -> None:
        first, rest = generators[0], generators[1:]
        if first.is_async:
            raise Refused("async comprehensions are not allowed")
        inner_scope = _Scope(local, scope)
        for item in self._iterable(self._eval(first.iter, inner_scope)):
            self._bind(first.target, item, local)
            if all(self._eval(condition, inner_scope) for condition in first.ifs):
                if rest:
                    self._comprehend(rest, local, scope, emit)
                else:
                    emit(inner_scope)

    def _bind(self, target: ast.AST, value: Any, local: dict) -> None:
        if isinstance(target, ast.Name) and not target.id.startswith("__"):
            local[target.id] = value
        elif isinstance(target, ast.Tuple):
            values = list(self._iterable(value))
            if len(values) != len(target.elts):
                raise ValueError("cannot unpack: wrong number of values")
            for element, item in zip(target.elts, values):
                self._bind(element, item, local)
        else:
            raise Refused("a comprehension binds plain names")

    def _items(self, elements, scope) -> list:
        items: list = []
        for element in elements:
            if isinstance(element, ast.Starred):
                items.extend(self._iterable(self._eval(element.value, scope)))
            else:
                items.append(self._eval(element, scope))
        return items

    def _iterable(self, value: Any) -> Iterable:
        if not isinstance(value, _SIZED + (range,)) or isinstance(value, bytes):
            raise Refused(f"iterating over a {type(value).__name__} is not allowed")
        _check_length(len(value))
        return value

    def _mapping(self, value: Any) -> dict:
        if not isinstance(value, dict):
            raise Refused("** takes a dictionary")
        return value


class _Scope(dict):
    """A comprehension's names over the enclosing symbol table."""

    def __init__(self, local: dict, outer: Mapping[str, Any]):
        super().__init__()
        self.local, self.outer = local, outer

    def __getitem__(self, key: str) -> Any:
        return self.local[key] if key in self.local else self.outer[key]

    def __contains__(self, key: object) -> bool:
        return key in self.local or key in self.outer


def _flat(scope: Mapping[str, Any]) -> dict:
    return dict(scope.local) if isinstance(scope, _Scope) else {}


def _describe(value: Any) -> str:
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    return f"{type(value).__name__} {name}" if name else f"a {type(value).__name__}"


# ---- the functions an expression may call ---------------------------------------------------

def _bounded_range(*args: int) -> range:
    if not all(isinstance(a, int) for a in args):
        raise TypeError("range() takes integers")
    result = range(*args)
    _check_length(len(result))
    return result


def _sequence(function: Callable) -> Callable:
    """``function`` (list, tuple, sorted...) over a bounded iterable of plain values."""
    def bounded(*args, **kwargs):
        if args and not isinstance(args[0], _PLAIN):
            if not isinstance(args[0], _SIZED + (range,)):
                raise Refused(f"{function.__name__}() takes a list, tuple, string or dict")
            _check_length(len(args[0]))
        return _check_result(function(*args, **kwargs))
    bounded.__name__ = function.__name__
    return bounded


def _bounded_pow(base, exponent, modulo=None):
    if modulo is None:
        _check_binary(ast.Pow, base, exponent)
    return _check_result(pow(base, exponent, modulo))


def _listed(function: Callable) -> Callable:
    """``map``/``filter``/``zip``/``enumerate``/``reversed`` materialised as a list."""
    def listed(*args):
        return _check_result(list(function(*args)))
    listed.__name__ = function.__name__
    return listed


SAFE_BUILTINS: dict[str, Callable] = {
    "abs": abs, "min": _sequence(min), "max": _sequence(max), "round": round, "int": int,
    "float": float, "str": str, "len": len, "bool": bool, "list": _sequence(list),
    "dict": _sequence(dict), "tuple": _sequence(tuple), "set": _sequence(set),
    "sorted": _sequence(sorted), "sum": _sequence(sum), "any": _sequence(any),
    "all": _sequence(all), "range": _bounded_range, "pow": _bounded_pow,
    "divmod": divmod, "ord": ord, "chr": chr, "map": _listed(map),
    "filter": _listed(filter), "zip": _listed(zip), "enumerate": _listed(enumerate),
    "reversed": _listed(reversed),
}


def safe_math() -> dict[str, Any]:
    """The functions and constants of ``math`` an expression may use, by name."""
    import math
    return {name: value for name, value in vars(math).items()
            if not name.startswith("_") and name not in UNBOUNDED_MATH}
