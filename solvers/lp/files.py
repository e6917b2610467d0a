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
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from core.errors import SpecError

MAX_BYTES = 20_000_000
MAX_ROWS = 50_000
MAX_COLS = 50_000
MAX_LINES = 2_000_000
MAX_NAME_CHARS = 255  # a row or column name (the LP and MPS formats' own limit, as CPLEX and HiGHS document)

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
    checker = _MpsChecker(name)
    for number, raw in lines:
        checker.w.line = number
        line = raw.rstrip("\r\n")
        if line.strip() and not line.startswith("*"):
            checker.line(line)
    return checker.finish()


class _MpsChecker:
    """The state of one MPS check: sections seen, rows, columns and what was assigned to them."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.w = _Where(name)
        self.seen: list[str] = []
        self.rows: dict[str, str] = {}
        self.objective: str | None = None
        self.cols: set[str] = set()
        self.current: str | None = None
        self.entries: set[str] = set()  # rows of the current column (a column's entries are consecutive)
        self.in_integer = False
        self.sets: dict[str, str] = {}
        self.assigned: set[tuple[str, str]] = set()
        self.ended = False

    def line(self, line: str) -> None:
        w = self.w
        if self.ended:
            raise w.error("text after ENDATA")
        tokens = line.split()
        if any(len(token) > MAX_NAME_CHARS for token in tokens):
            raise w.error(f"a name longer than {MAX_NAME_CHARS} characters (the format's limit)")
        if not line[0].isspace():
            self.section(tokens)
        elif w.section in ("", "NAME"):
            raise w.error("data before the ROWS section")
        elif w.section == "OBJSENSE":
            if len(tokens) != 1:
                raise w.error("expected MAX or MIN")
            _objsense(tokens[0], w)
        elif w.section == "ROWS":
            self.row(tokens)
        elif w.section == "COLUMNS":
            self.column(tokens)
        elif w.section in ("RHS", "RANGES"):
            self.rhs(tokens)
        elif w.section == "BOUNDS":
            self.bound(tokens)

    def section(self, tokens: list[str]) -> None:
        w, seen = self.w, self.seen
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
        if self.in_integer:
            raise w.error("an INTORG marker in COLUMNS has no INTEND")
        if key == "OBJSENSE" and len(tokens) > 1:
            _objsense(tokens[1], w)
        seen.append(key)
        self.ended = key == "ENDATA"

    def row(self, tokens: list[str]) -> None:
        w = self.w
        if len(tokens) != 2:
            raise w.error("expected a row type (N, E, L or G) and a row name")
        kind, row = tokens[0].upper(), tokens[1]
        if kind not in ("N", "E", "L", "G"):
            raise w.error(f"row type {tokens[0]!r} is not N, E, L or G")
        if row in self.rows:
            raise w.error(f"row {row!r} is defined twice")
        if kind == "N":
            if self.objective is not None:
                raise w.error(f"a second objective (N) row {row!r}; only one is supported")
            self.objective = row
        elif len(self.rows) - (self.objective is not None) >= MAX_ROWS:
            raise w.error(f"more than {MAX_ROWS:,} rows (the limit)")
        self.rows[row] = kind

    def column(self, tokens: list[str]) -> None:
        w = self.w
        if len(tokens) >= 2 and tokens[1].strip("'\"").upper() == "MARKER":
            marker = tokens[2].strip("'\"").upper() if len(tokens) == 3 else ""
            if marker == "INTORG" and not self.in_integer:
                self.in_integer = True
            elif marker == "INTEND" and self.in_integer:
                self.in_integer = False
            else:
                raise w.error("a MARKER line must open ('INTORG') then close ('INTEND') an integer block")
            return
        if len(tokens) not in (3, 5):
            raise w.error("expected COLUMN ROW VALUE [ROW VALUE]")
        col = tokens[0]
        if col != self.current:
            if col in self.cols:
                raise w.error(f"column {col!r} is defined twice (its entries must be consecutive)")
            if len(self.cols) >= MAX_COLS:
                raise w.error(f"more than {MAX_COLS:,} columns (the limit)")
            self.cols.add(col)
            self.current = col
            self.entries = set()
        for row, value in zip(tokens[1::2], tokens[2::2], strict=True):
            if row not in self.rows:
                raise w.error(f"row {row!r} is not defined in ROWS")
            _number(value, w)
            if row in self.entries:
                raise w.error(f"column {col!r} has a second entry in row {row!r}")
            self.entries.add(row)

    def rhs(self, tokens: list[str]) -> None:
        w = self.w
        pairs = tokens[1:] if len(tokens) in (3, 5) else tokens if len(tokens) in (2, 4) else None
        if pairs is None or (len(tokens) in (2, 4) and tokens[0] not in self.rows):
            raise w.error("expected [SET] ROW VALUE [ROW VALUE]")
        if len(tokens) in (3, 5):
            _one_set(w, self.sets, tokens[0])
        for row, value in zip(pairs[::2], pairs[1::2], strict=True):
            if row not in self.rows:
                raise w.error(f"row {row!r} is not defined in ROWS")
            if w.section == "RANGES" and self.rows[row] == "N":
                raise w.error(f"the objective row {row!r} cannot have a range")
            _number(value, w)
            if (w.section, row) in self.assigned:
                raise w.error(f"row {row!r} is given a second {w.section} value")
            self.assigned.add((w.section, row))

    def bound(self, tokens: list[str]) -> None:
        w = self.w
        kind = tokens[0].upper()
        if kind == "SC":
            raise w.error("semi-continuous (SC) bounds are not supported")
        if kind in _VALUE_BOUNDS:
            if len(tokens) not in (3, 4):
                raise w.error(f"expected {kind} [SET] COLUMN VALUE")
            col = tokens[-2]
            _number(tokens[-1], w)
            if len(tokens) == 4:
                _one_set(w, self.sets, tokens[1])
        elif kind in _FLAG_BOUNDS:
            if len(tokens) not in (2, 3, 4):
                raise w.error(f"expected {kind} [SET] COLUMN")
            col = tokens[1] if len(tokens) == 2 else tokens[2]
            if len(tokens) > 2:
                _one_set(w, self.sets, tokens[1])
            if len(tokens) == 4:
                _number(tokens[3], w)
        else:
            raise w.error(f"bound type {tokens[0]!r} is not one of {', '.join(_VALUE_BOUNDS + _FLAG_BOUNDS)}")
        if col not in self.cols:
            raise w.error(f"column {col!r} is not defined in COLUMNS")
        if (kind, col) in self.assigned:
            raise w.error(f"column {col!r} has a second {kind} bound")
        self.assigned.add((kind, col))

    def finish(self) -> FileModel:
        if not self.ended:
            last = f" (it stops in section {self.w.section})" if self.w.section else ""
            raise SpecError(
                "file", f"{self.name} ends without ENDATA{last}: the file is truncated or not an MPS model"
            )
        for needed in ("ROWS", "COLUMNS"):
            if needed not in self.seen:
                raise SpecError("file", f"{self.name} has no {needed} section")
        if not self.cols:
            raise SpecError("file", f"{self.name} defines no columns (variables)")
        constraints = frozenset(r for r, kind in self.rows.items() if kind != "N")
        return FileModel(len(constraints), constraints, frozenset(self.cols))


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


class _Stream:
    """The LP file's tokens, read lazily line by line (bounded memory) with a short lookahead.

    A token is (kind, text, line); a line that opens a section gives ("section", name, line) first.
    """

    def __init__(self, lines: Iterable[tuple[int, str]], w: _Where) -> None:
        self.w = w
        self._buffer: deque[tuple[str, str, int]] = deque()
        self._tokens = self._read(lines)
        self.ended = False

    def _read(self, lines: Iterable[tuple[int, str]]) -> Iterator[tuple[str, str, int]]:
        for number, raw in lines:
            text = raw.split("\\", 1)[0]
            if not text.strip():
                continue
            opened = _keyword(text)
            if opened is not None:
                section, text = opened
                yield "section", section, number
            for match in _LP_TOKEN.finditer(text):
                if match.lastgroup == "name" and len(match.group()) > MAX_NAME_CHARS:
                    self.w.line = number
                    raise self.w.error(f"a name longer than {MAX_NAME_CHARS} characters (the format's limit)")
                yield match.lastgroup or "bad", match.group(), number
        self.ended = True

    def peek(self, k: int = 0) -> tuple[str, str, int] | None:
        while len(self._buffer) <= k:
            token = next(self._tokens, None)
            if token is None:
                return None
            self._buffer.append(token)
        return self._buffer[k]

    def kind(self, k: int = 0) -> str | None:
        token = self.peek(k)
        return None if token is None else token[0]

    def take(self) -> tuple[str, str, int]:
        """The next token of the current section (the file ending here means it was cut)."""
        token = self.peek()
        if token is None:
            raise _truncated(self.w)
        if token[0] == "bad":
            self.w.line = token[2]
            raise self.w.error(f"{token[1]!r} is not supported here (linear models only)")
        self.w.line = token[2]
        return self._buffer.popleft()

    def in_section(self) -> bool:
        """More tokens in the current section (False at the next section); the file ending is an error."""
        kind = self.kind()
        if kind is None:
            raise _truncated(self.w)
        return kind != "section"


def _truncated(w: _Where) -> SpecError:
    last = f" (it stops in section {w.section!r})" if w.section else ""
    return SpecError("file", f"{w.name} ends without an End line{last}: the file is truncated or not an LP model")


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
    """Check a CPLEX-LP file given as (line number, text), streamed; SpecError at the first problem."""
    w = _Where(name)
    ts = _Stream(lines, w)
    first = ts.peek()
    if first is None:
        raise _truncated(w)
    if first[0] != "section" or first[1] != "objective":
        w.line = first[2]
        raise w.error("the file must start with Minimize or Maximize")
    order: list[str] = []
    variables: set[str] = set()
    names: set[str] = set()
    count = 0
    while ts.peek() is not None:
        _kind, section, w.line = ts._buffer.popleft()
        if section in order:
            raise w.error(f"section {section!r} appears twice")
        if order and _LP_RANK[section] < _LP_RANK[order[-1]]:
            raise w.error(f"section {section!r} after {order[-1]!r}")
        if section == "sos":
            raise w.error("SOS constraints are not supported")
        order.append(section)
        w.section = section
        if section == "end":
            extra = ts.peek()
            if extra is not None:
                w.line = extra[2]
                raise w.error("text after End")
            break
        if section == "objective":
            if ts.kind() == "name" and ts.kind(1) == "colon":
                ts.take(), ts.take()
            _expression(ts, variables, constant_ok=True)
            if ts.in_section():
                raise w.error(f"unexpected {ts.take()[1]!r} in the objective")
        elif section == "constraints":
            count = _constraints(ts, variables, names)
        elif section == "bounds":
            _bounds(ts, variables)
        else:
            listed: set[str] = set()
            while ts.in_section():
                kind, text, _line = ts.take()
                if kind != "name":
                    raise w.error(f"expected variable names, found {text!r}")
                if text not in variables:
                    raise w.error(f"variable {text!r} appears in no objective or constraint")
                if text in listed:
                    raise w.error(f"variable {text!r} is listed twice")
                listed.add(text)
    if "end" not in order:
        raise _truncated(w)
    if not variables:
        raise SpecError("file", f"{name} defines no variables")
    return FileModel(count, frozenset(names), frozenset(variables))


def _expression(ts: _Stream, variables: set[str], *, constant_ok: bool) -> None:
    """Read `[sign] [number] [name]` terms up to an operator, a `name:` label or the end of the section."""
    w = ts.w
    first = True
    while ts.in_section() and ts.kind() not in ("op", "colon"):
        signed = False
        while ts.kind() == "sign":
            ts.take()
            signed = True
        if not first and not signed:
            if ts.kind(1) == "colon":
                return  # the next constraint's name
            raise w.error(f"expected + or - before {ts.take()[1]!r}")
        coef = False
        if ts.kind() == "num":
            _number(ts.take()[1], w)
            coef = True
        if ts.kind() == "name":
            if ts.kind(1) == "colon" and not coef and not signed:
                return
            text = ts.take()[1]
            if text.lower() in _NON_FINITE:
                raise w.error(f"{text!r} is not a finite number")
            variables.add(text)
            if len(variables) > MAX_COLS:
                raise w.error(f"more than {MAX_COLS:,} variables (the limit)")
        elif not coef:
            found = ts.take()[1] if ts.in_section() else "the end of the section"
            raise w.error(f"expected a term, found {found!r}")
        elif not constant_ok:
            raise w.error("a constant term on the left-hand side; move it to the right-hand side")
        first = False


def _signed_value(ts: _Stream, *, allow_infinite: bool) -> float:
    sign = ""
    while ts.kind() == "sign":
        sign = "-" if (sign == "-") != (ts.take()[1] == "-") else "+"
    if not ts.in_section() or ts.kind() not in ("num", "name"):
        raise ts.w.error("expected a number")
    return _number(sign + ts.take()[1], ts.w, allow_infinite=allow_infinite)


def _constraints(ts: _Stream, variables: set[str], names: set[str]) -> int:
    w = ts.w
    count = 0
    while ts.in_section():
        if ts.kind() == "name" and ts.kind(1) == "colon":
            label = ts.take()[1]
            ts.take()
            if label in names:
                raise w.error(f"constraint {label!r} is defined twice")
            names.add(label)
        _expression(ts, variables, constant_ok=False)
        if not ts.in_section() or ts.kind() != "op":
            raise w.error("a constraint without <=, >= or = and a right-hand side")
        ts.take()
        _signed_value(ts, allow_infinite=False)
        count += 1
        if count > MAX_ROWS:
            raise w.error(f"more than {MAX_ROWS:,} constraints (the limit)")
    return count


def _bounds(ts: _Stream, variables: set[str]) -> None:
    w = ts.w
    sides: set[tuple[str, str]] = set()

    def bound(col: tuple[str, str, int], *kinds: str) -> None:
        w.line = col[2]
        if col[0] != "name" or col[1].lower() in _NON_FINITE:
            raise w.error(f"expected a variable, found {col[1]!r}")
        if col[1] not in variables:
            raise w.error(f"bound on {col[1]!r}, which appears in no objective or constraint")
        for kind in kinds:
            if (col[1], kind) in sides:
                raise w.error(f"variable {col[1]!r} has a second {kind} bound")
            sides.add((col[1], kind))

    while ts.in_section():
        if ts.kind() == "name" and ts.peek()[1].lower() not in _INFINITY:
            col = ts.take()
            nxt = ts.peek() if ts.in_section() else None
            if nxt is not None and nxt[0] == "name" and nxt[1].lower() == "free":
                ts.take()
                bound(col, "lower", "upper")
                continue
            if nxt is None or nxt[0] != "op":
                raise w.error(f"expected a bound on {col[1]!r} (<=, >=, = or free)")
            op = ts.take()[1]
            _signed_value(ts, allow_infinite=True)
            bound(col, *(("lower", "upper") if op == "=" else ("upper",) if "<" in op else ("lower",)))
            continue
        _signed_value(ts, allow_infinite=True)
        if not ts.in_section() or ts.kind() != "op":
            raise w.error("expected NUMBER <= VARIABLE [<= NUMBER]")
        op = ts.take()[1]
        col = ts.take()
        kinds = ("lower", "upper") if op == "=" else ("lower",) if "<" in op else ("upper",)
        if ts.in_section() and ts.kind() == "op":
            ts.take()
            _signed_value(ts, allow_infinite=True)
            kinds = ("lower", "upper")
        bound(col, *kinds)
