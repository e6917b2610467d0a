"""Strict checks of a user's .mps or .lp file before HiGHS reads it.

HiGHS's readers are lenient: a truncated MPS file can read as an empty model that is "OPTIMAL with objective 0",
an entry naming an undefined row is dropped, a second definition of a row is added as another row. So the
file is first read here line by line (streamed, with the size, row and column caps applied as it goes) and
refused at the first sign of truncation or inconsistency: a missing ENDATA / End, a missing or repeated
section, a reference to a row or column that is not defined, a number that is not finite, a duplicate
definition. Every error names the file, the line and the section. What passes is summarised as a
`FileModel` (the row and column names), which `analyze.read_model` compares with what HiGHS read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.errors import SpecError

MAX_BYTES = 20_000_000
MAX_ROWS = 50_000
MAX_COLS = 50_000
MAX_LINES = 2_000_000

MPS_SECTIONS = ("NAME", "OBJSENSE", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "ENDATA")
MPS_UNSUPPORTED = ("QUADOBJ", "QMATRIX", "QSECTION", "QCMATRIX", "CSECTION", "SOS", "INDICATORS")
_VALUE_BOUNDS = ("UP", "LO", "FX", "LI", "UI")
_FLAG_BOUNDS = ("FR", "MI", "PL", "BV")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_INFINITY = ("inf", "infinity")


@dataclass(frozen=True)
class FileModel:
    """What the file defines: constraint rows (the objective excluded) and columns, by name."""

    rows: int
    row_names: frozenset[str]
    col_names: frozenset[str]


class _Where:
    """The file name, current line and section, for error messages."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.line = 0
        self.section = ""

    def error(self, message: str) -> SpecError:
        where = f"{self.name} line {self.line}" + (f" ({self.section})" if self.section else "")
        return SpecError("file", f"{where}: {message}")


def _number(token: str, where: _Where, *, allow_infinite: bool = False) -> float:
    if _NUMBER.fullmatch(token):
        value = float(token)
        if math.isfinite(value):
            return value
        raise where.error(f"{token!r} is too large (not a finite number)")
    if allow_infinite and token.lower().lstrip("+-") in _INFINITY:
        return -math.inf if token.startswith("-") else math.inf
    raise where.error(f"{token!r} is not a finite number")


# --- MPS ---


def check_mps(lines: Iterable[tuple[int, str]], name: str) -> FileModel:
    """Check a free-format MPS file given as (line number, text); SpecError at the first problem."""
    w = _Where(name)
    seen: list[str] = []
    rows: dict[str, str] = {}
    objective: str | None = None
    cols: set[str] = set()
    current: str | None = None
    entries: set[tuple[str, str]] = set()
    in_integer = False
    sets: dict[str, str] = {}
    assigned: set[tuple[str, str]] = set()
    ended = False
    for number, raw in lines:
        w.line = number
        line = raw.rstrip("\r\n")
        if not line.strip() or line.startswith("*"):
            continue
        if ended:
            raise w.error("text after ENDATA")
        tokens = line.split()
        if not line[0].isspace():
            key = tokens[0].upper()
            w.section = key
            if key in MPS_UNSUPPORTED:
                raise w.error(f"section {key} is not supported (linear and integer models only)")
            if key not in MPS_SECTIONS:
                raise w.error(f"{tokens[0]!r} is not an MPS section ({', '.join(MPS_SECTIONS)})")
            if key in seen:
                raise w.error(f"section {key} appears twice")
            if seen and MPS_SECTIONS.index(key) < MPS_SECTIONS.index(seen[-1]):
                raise w.error(f"section {key} after {seen[-1]}; the order is {', '.join(MPS_SECTIONS)}")
            for needed in ("ROWS", "COLUMNS"):
                if MPS_SECTIONS.index(key) > MPS_SECTIONS.index(needed) and needed not in seen:
                    raise w.error(f"section {key} before any {needed} section (is the file cut or merged?)")
            if in_integer:
                raise w.error("an INTORG marker in COLUMNS has no INTEND")
            if key == "OBJSENSE" and len(tokens) > 1:
                _objsense(tokens[1], w)
            seen.append(key)
            ended = key == "ENDATA"
            continue
        if w.section in ("", "NAME"):
            raise w.error("data before the ROWS section")
        if w.section == "OBJSENSE":
            if len(tokens) != 1:
                raise w.error("expected MAX or MIN")
            _objsense(tokens[0], w)
        elif w.section == "ROWS":
            if len(tokens) != 2:
                raise w.error("expected a row type (N, E, L or G) and a row name")
            kind, row = tokens[0].upper(), tokens[1]
            if kind not in ("N", "E", "L", "G"):
                raise w.error(f"row type {tokens[0]!r} is not N, E, L or G")
            if row in rows:
                raise w.error(f"row {row!r} is defined twice")
            if kind == "N":
                if objective is not None:
                    raise w.error(f"a second objective (N) row {row!r}; only one is supported")
                objective = row
            elif len(rows) - (objective is not None) >= MAX_ROWS:
                raise w.error(f"more than {MAX_ROWS:,} rows (the limit)")
            rows[row] = kind
        elif w.section == "COLUMNS":
            if len(tokens) >= 2 and tokens[1].strip("'\"").upper() == "MARKER":
                marker = tokens[2].strip("'\"").upper() if len(tokens) == 3 else ""
                if marker == "INTORG" and not in_integer:
                    in_integer = True
                elif marker == "INTEND" and in_integer:
                    in_integer = False
                else:
                    raise w.error("a MARKER line must open ('INTORG') then close ('INTEND') an integer block")
                continue
            if len(tokens) not in (3, 5):
                raise w.error("expected COLUMN ROW VALUE [ROW VALUE]")
            col = tokens[0]
            if col != current:
                if col in cols:
                    raise w.error(f"column {col!r} is defined twice (its entries must be consecutive)")
                if len(cols) >= MAX_COLS:
                    raise w.error(f"more than {MAX_COLS:,} columns (the limit)")
                cols.add(col)
                current = col
            for row, value in zip(tokens[1::2], tokens[2::2], strict=True):
                if row not in rows:
                    raise w.error(f"row {row!r} is not defined in ROWS")
                _number(value, w)
                if (col, row) in entries:
                    raise w.error(f"column {col!r} has a second entry in row {row!r}")
                entries.add((col, row))
        elif w.section in ("RHS", "RANGES"):
            pairs = tokens[1:] if len(tokens) in (3, 5) else tokens if len(tokens) in (2, 4) else None
            if pairs is None or (len(tokens) in (2, 4) and tokens[0] not in rows):
                raise w.error("expected [SET] ROW VALUE [ROW VALUE]")
            if len(tokens) in (3, 5):
                _one_set(w, sets, tokens[0])
            for row, value in zip(pairs[::2], pairs[1::2], strict=True):
                if row not in rows:
                    raise w.error(f"row {row!r} is not defined in ROWS")
                if w.section == "RANGES" and rows[row] == "N":
                    raise w.error(f"the objective row {row!r} cannot have a range")
                _number(value, w)
                if (w.section, row) in assigned:
                    raise w.error(f"row {row!r} is given a second {w.section} value")
                assigned.add((w.section, row))
        elif w.section == "BOUNDS":
            kind = tokens[0].upper()
            if kind == "SC":
                raise w.error("semi-continuous (SC) bounds are not supported")
            if kind in _VALUE_BOUNDS:
                if len(tokens) not in (3, 4):
                    raise w.error(f"expected {kind} [SET] COLUMN VALUE")
                col = tokens[-2]
                _number(tokens[-1], w)
                if len(tokens) == 4:
                    _one_set(w, sets, tokens[1])
            elif kind in _FLAG_BOUNDS:
                if len(tokens) not in (2, 3, 4):
                    raise w.error(f"expected {kind} [SET] COLUMN")
                col = tokens[1] if len(tokens) == 2 else tokens[2]
                if len(tokens) > 2:
                    _one_set(w, sets, tokens[1])
                if len(tokens) == 4:
                    _number(tokens[3], w)
            else:
                raise w.error(f"bound type {tokens[0]!r} is not one of {', '.join(_VALUE_BOUNDS + _FLAG_BOUNDS)}")
            if col not in cols:
                raise w.error(f"column {col!r} is not defined in COLUMNS")
            if (kind, col) in assigned:
                raise w.error(f"column {col!r} has a second {kind} bound")
            assigned.add((kind, col))
    if not ended:
        last = f" (it stops in section {w.section})" if w.section else ""
        raise SpecError("file", f"{name} ends without ENDATA{last}: the file is truncated or not an MPS model")
    for needed in ("ROWS", "COLUMNS"):
        if needed not in seen:
            raise SpecError("file", f"{name} has no {needed} section")
    if not cols:
        raise SpecError("file", f"{name} defines no columns (variables)")
    constraints = frozenset(r for r, kind in rows.items() if kind != "N")
    return FileModel(len(constraints), constraints, frozenset(cols))


def _objsense(token: str, w: _Where) -> None:
    if token.upper() not in ("MAX", "MIN", "MAXIMIZE", "MINIMIZE"):
        raise w.error(f"objective sense {token!r} is not MAX or MIN")


def _one_set(w: _Where, sets: dict[str, str], label: str) -> None:
    known = sets.setdefault(w.section, label)
    if known != label:
        raise w.error(f"a second {w.section} set {label!r} (only one, {known!r}, is read)")


# --- CPLEX LP ---

_LP_SECTIONS = {
    "objective": ("minimize", "minimise", "minimum", "min", "maximize", "maximise", "maximum", "max"),
    "constraints": ("subject to", "such that", "st", "s.t."),
    "bounds": ("bounds", "bound"),
    "general": ("generals", "general", "gen"),
    "binary": ("binaries", "binary", "bin"),
    "semi": ("semi-continuous", "semis", "semi"),
    "sos": ("sos",),
    "end": ("end",),
}
_LP_RANK = {"objective": 0, "constraints": 1, "bounds": 2, "general": 3, "binary": 3, "semi": 3, "sos": 4, "end": 5}
_LP_TOKEN = re.compile(
    r"(?P<op><=|>=|=<|=>|<|>|=)|(?P<sign>[+-])|(?P<colon>:)"
    r"|(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(?P<name>[^\s+\-<>=:\[\]^*]+)|(?P<bad>\S)"
)
_NON_FINITE = ("inf", "infinity", "nan")


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    line: int


def _keyword(text: str) -> tuple[str, str] | None:
    """(section, rest of the line) when the line opens a section."""
    words = " ".join(text.split()).lower()
    for section, keys in _LP_SECTIONS.items():
        for key in keys:
            if words == key or words.startswith(key + " "):
                rest = text.split(None, len(key.split()))
                return section, rest[len(key.split())] if len(rest) > len(key.split()) else ""
    return None


def check_lp(lines: Iterable[tuple[int, str]], name: str) -> FileModel:
    """Check a CPLEX-LP file given as (line number, text); SpecError at the first problem."""
    w = _Where(name)
    sections: dict[str, list[_Tok]] = {}
    order: list[str] = []
    tokens: list[_Tok] | None = None
    for number, raw in lines:
        w.line = number
        text = raw.split("\\", 1)[0]
        if not text.strip():
            continue
        if "end" in order:
            raise w.error("text after End")
        opened = _keyword(text)
        if opened is not None:
            section, text = opened
            if section in order:
                raise w.error(f"section {section!r} appears twice")
            if not order and section != "objective":
                raise w.error("the file must start with Minimize or Maximize")
            if order and _LP_RANK[section] < _LP_RANK[order[-1]]:
                raise w.error(f"section {section!r} after {order[-1]!r}")
            if section == "sos":
                raise w.error("SOS constraints are not supported")
            order.append(section)
            w.section = section
            tokens = sections.setdefault(section, [])
        elif tokens is None:
            raise w.error("the file must start with Minimize or Maximize")
        for match in _LP_TOKEN.finditer(text):
            kind = match.lastgroup or "bad"
            if kind == "bad":
                raise w.error(f"{match.group()!r} is not supported here (linear models only)")
            tokens.append(_Tok(kind, match.group(), number))
    if "end" not in order:
        last = f" (it stops in section {w.section!r})" if w.section else ""
        raise SpecError("file", f"{name} ends without an End line{last}: the file is truncated or not an LP model")
    variables: set[str] = set()
    w.section = "objective"
    obj = sections["objective"]
    start = 2 if len(obj) >= 2 and obj[0].kind == "name" and obj[1].kind == "colon" else 0
    end = _expression(obj, start, w, variables, constant_ok=True)
    if end < len(obj):
        w.line = obj[end].line
        raise w.error(f"unexpected {obj[end].text!r} in the objective")
    names, count = _constraints(sections.get("constraints", []), w, variables)
    _bounds(sections.get("bounds", []), w, variables)
    for section in ("general", "binary", "semi"):
        w.section = section
        listed: set[str] = set()
        for tok in sections.get(section, []):
            w.line = tok.line
            if tok.kind != "name":
                raise w.error(f"expected variable names, found {tok.text!r}")
            if tok.text not in variables:
                raise w.error(f"variable {tok.text!r} appears in no objective or constraint")
            if tok.text in listed:
                raise w.error(f"variable {tok.text!r} is listed twice")
            listed.add(tok.text)
    if not variables:
        raise SpecError("file", f"{name} defines no variables")
    return FileModel(count, frozenset(names), frozenset(variables))


def _expression(toks: list[_Tok], i: int, w: _Where, variables: set[str], *, constant_ok: bool) -> int:
    """Read `[sign] [number] [name]` terms from `i` until an operator or the end; return the next index."""
    first = True
    while i < len(toks) and toks[i].kind not in ("op", "colon"):
        w.line = toks[i].line
        signed = False
        while i < len(toks) and toks[i].kind == "sign":
            signed, i = True, i + 1
        if not first and not signed:
            if i + 1 < len(toks) and toks[i + 1].kind == "colon":
                return i  # the next constraint's name
            raise w.error(f"expected + or - before {toks[i].text!r}")
        coef = False
        if i < len(toks) and toks[i].kind == "num":
            w.line = toks[i].line
            _number(toks[i].text, w)
            coef, i = True, i + 1
        if i < len(toks) and toks[i].kind == "name":
            w.line = toks[i].line
            if toks[i].text.lower() in _NON_FINITE:
                raise w.error(f"{toks[i].text!r} is not a finite number")
            if i + 1 < len(toks) and toks[i + 1].kind == "colon" and not coef and not signed:
                return i
            variables.add(toks[i].text)
            if len(variables) > MAX_COLS:
                raise w.error(f"more than {MAX_COLS:,} variables (the limit)")
            i += 1
        elif not coef:
            found = toks[i].text if i < len(toks) else "the end of the section"
            raise w.error(f"expected a term, found {found!r}")
        elif not constant_ok:
            raise w.error("a constant term on the left-hand side; move it to the right-hand side")
        first = False
    return i


def _signed_value(toks: list[_Tok], i: int, w: _Where, *, allow_infinite: bool) -> tuple[float, int]:
    sign = ""
    while i < len(toks) and toks[i].kind == "sign":
        sign = "-" if (sign == "-") != (toks[i].text == "-") else "+"
        i += 1
    if i >= len(toks) or toks[i].kind not in ("num", "name"):
        raise w.error("expected a number")
    w.line = toks[i].line
    return _number(sign + toks[i].text, w, allow_infinite=allow_infinite), i + 1


def _constraints(toks: list[_Tok], w: _Where, variables: set[str]) -> tuple[set[str], int]:
    w.section = "constraints"
    names: set[str] = set()
    count = 0
    i = 0
    while i < len(toks):
        w.line = toks[i].line
        if i + 1 < len(toks) and toks[i].kind == "name" and toks[i + 1].kind == "colon":
            label = toks[i].text
            if label in names:
                raise w.error(f"constraint {label!r} is defined twice")
            names.add(label)
            i += 2
        i = _expression(toks, i, w, variables, constant_ok=False)
        if i >= len(toks) or toks[i].kind != "op":
            raise w.error("a constraint without <=, >= or = and a right-hand side (is the file cut?)")
        i += 1
        if i >= len(toks):
            raise w.error("a constraint without a right-hand side (is the file cut?)")
        _value, i = _signed_value(toks, i, w, allow_infinite=False)
        count += 1
        if count > MAX_ROWS:
            raise w.error(f"more than {MAX_ROWS:,} constraints (the limit)")
    return names, count


def _bounds(toks: list[_Tok], w: _Where, variables: set[str]) -> None:
    w.section = "bounds"
    sides: set[tuple[str, str]] = set()

    def bound(col: _Tok, *kinds: str) -> None:
        w.line = col.line
        if col.kind != "name" or col.text.lower() in _NON_FINITE:
            raise w.error(f"expected a variable, found {col.text!r}")
        if col.text not in variables:
            raise w.error(f"bound on {col.text!r}, which appears in no objective or constraint")
        for kind in kinds:
            if (col.text, kind) in sides:
                raise w.error(f"variable {col.text!r} has a second {kind} bound")
            sides.add((col.text, kind))

    i = 0
    while i < len(toks):
        w.line = toks[i].line
        tok = toks[i]
        if tok.kind == "name" and tok.text.lower() not in _INFINITY:
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if nxt is not None and nxt.kind == "name" and nxt.text.lower() == "free":
                bound(tok, "lower", "upper")
                i += 2
                continue
            if nxt is None or nxt.kind != "op":
                raise w.error(f"expected a bound on {tok.text!r} (<=, >=, = or free)")
            _value, i = _signed_value(toks, i + 2, w, allow_infinite=True)
            op = nxt.text
            bound(tok, *(("lower", "upper") if op == "=" else ("upper",) if "<" in op else ("lower",)))
            continue
        _value, i = _signed_value(toks, i, w, allow_infinite=True)
        if i + 1 >= len(toks) or toks[i].kind != "op":
            raise w.error("expected NUMBER <= VARIABLE [<= NUMBER]")
        op = toks[i].text
        col = toks[i + 1]
        i += 2
        kinds = ("lower", "upper") if op == "=" else ("lower",) if "<" in op else ("upper",)
        if i < len(toks) and toks[i].kind == "op":
            _value, i = _signed_value(toks, i + 1, w, allow_infinite=True)
            kinds = ("lower", "upper")
        bound(col, *kinds)
