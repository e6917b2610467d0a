"""Bounded reading of user files (CLI paths and page uploads): streaming size caps, UTF-8, control characters.

Every loader of a user file reads through here, so a file over its cap is refused after reading at most
cap + 1 bytes (never parsed in full first), text that is not UTF-8 is refused with the byte and line, and a
control character (NUL, escape, ...) is refused with its line instead of reaching a name or a label.
Errors are `SpecError(field, ...)` whose message starts with the user's file name.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from core.errors import SpecError

# C0 controls except tab, newline and carriage return; DEL and the C1 controls.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
T = TypeVar("T")


def _mb(limit: int) -> str:
    return f"{limit / 1_000_000:g} MB"


def _unreadable(err: OSError, *, field: str, name: str) -> SpecError:
    return SpecError(field, f"{name}: cannot read it ({err.strerror or err})")


def _open_regular(source: str | Path, *, field: str, name: str) -> BinaryIO:
    """The file at `source` opened for reading bytes; refused when it is missing, not a regular file (a folder,
    a device, a pipe) or cannot be opened."""
    path = Path(source)
    if not path.exists():
        raise SpecError(field, f"{name}: file not found")
    if not path.is_file():
        raise SpecError(field, f"{name} is not a regular file")
    try:
        return path.open("rb")
    except OSError as err:
        raise _unreadable(err, field=field, name=name) from None


def read_bounded(source: str | Path | bytes, *, field: str, name: str, max_bytes: int) -> bytes:
    """The file's bytes (or the uploaded bytes), refused once more than `max_bytes` have been read."""
    if isinstance(source, bytes | bytearray):
        raw = bytes(source)
    else:
        with _open_regular(source, field=field, name=name) as handle:
            try:
                raw = handle.read(max_bytes + 1)
            except OSError as err:
                raise _unreadable(err, field=field, name=name) from None
    if len(raw) > max_bytes:
        raise SpecError(field, f"{name} is larger than the limit of {_mb(max_bytes)}")
    return raw


def decode_text(raw: bytes, *, field: str, name: str) -> str:
    """UTF-8 text (a BOM is dropped) without control characters; the error gives the line."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise SpecError(
            field, f"{name} is not UTF-8 text (byte {err.start}, line {line}); is it a binary file?"
        ) from None
    check_controls(text, field=field, name=name)
    return text


def check_controls(text: str, *, field: str, name: str, first_line: int = 1) -> None:
    """Refuse a control character, naming the line where it is (numbered from `first_line`)."""
    match = _CONTROL.search(text)
    if match is not None:
        line = first_line + text.count("\n", 0, match.start())
        raise SpecError(
            field, f"{name} line {line}: control character {match.group()!r} is not allowed in a text file"
        )


def read_text(source: str | Path | bytes, *, field: str, name: str, max_bytes: int) -> str:
    """`read_bounded` then `decode_text`: the whole file as checked text."""
    return decode_text(read_bounded(source, field=field, name=name, max_bytes=max_bytes), field=field, name=name)


def iter_lines(
    source: str | Path | bytes, *, field: str, name: str, max_bytes: int, max_lines: int
) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line, streamed: stops at the first byte or line past its cap and refuses."""
    if isinstance(source, bytes | bytearray):
        if len(source) > max_bytes:
            raise SpecError(field, f"{name} is larger than the limit of {_mb(max_bytes)}")
        yield from _lines(iter(io.BytesIO(bytes(source)).readline, b""), field, name, max_bytes, max_lines)
        return
    with _open_regular(source, field=field, name=name) as handle:
        yield from _lines(iter(lambda: handle.readline(max_bytes + 1), b""), field, name, max_bytes, max_lines)


def _lines(
    chunks: Iterator[bytes], field: str, name: str, max_bytes: int, max_lines: int
) -> Iterator[tuple[int, str]]:
    total = 0
    for number, raw in enumerate(chunks, start=1):
        total += len(raw)
        if total > max_bytes:
            raise SpecError(field, f"{name} is larger than the limit of {_mb(max_bytes)} (at line {number})")
        if number > max_lines:
            raise SpecError(field, f"{name} has more than {max_lines:,} lines (the limit)")
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as err:
            raise SpecError(
                field, f"{name} line {number} is not UTF-8 text (byte {err.start}); is it a binary file?"
            ) from None
        check_controls(text, field=field, name=name, first_line=number)
        yield number, text


MAX_JSON_INT = 2**63  # larger whole numbers are refused: they overflow floats and the store's BIGINT


def _no_constant(token: str) -> float:
    raise ValueError(f"{token} is not a number a file can hold")


def _finite_float(token: str) -> float:
    value = float(token)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{token} is too large (not a finite number)")
    return value


def _bounded_int(token: str) -> int:
    if len(token.lstrip("-")) > 19 or abs(int(token)) >= MAX_JSON_INT:
        raise ValueError(f"{token[:30]} is too large a whole number")
    return int(token)


JSON_HOOKS = {"parse_constant": _no_constant, "parse_float": _finite_float, "parse_int": _bounded_int}


def csv_rows(text: str, *, field: str, name: str) -> list[tuple[int, list[str]]]:
    """The (line number, cells) of every CSV row; a row the csv module cannot read (a field over its size
    limit, a stray quote in strict mode) is refused naming the line."""
    import csv

    reader = csv.reader(io.StringIO(text))
    rows: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            rows.append((reader.line_num, cells))
    except csv.Error as err:
        raise SpecError(field, f"{name} line {reader.line_num + 1}: not a readable CSV row ({err})") from None
    return rows


def load_json(text: str, *, field: str, where: str) -> object:
    """Strict JSON: NaN, infinities, numbers that overflow and nesting too deep are refused (SpecError)."""
    import json

    try:
        return json.loads(text, **JSON_HOOKS)
    except json.JSONDecodeError as err:
        raise SpecError(field, f"{where}: not valid JSON ({err.msg}, line {err.lineno} column {err.colno})") from None
    except RecursionError:
        raise SpecError(field, f"{where}: not valid JSON (nested too deeply)") from None
    except ValueError as err:
        raise SpecError(field, f"{where}: not valid JSON ({err})") from None


RECORD_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError)
"""What a `from_dict` raises on a record of the wrong shape (a string for a number, a list for an object, …)."""


def parse_record(
    record: object, parse: Callable[[dict[str, Any]], T], *, field: str, where: str, not_object: str, what: str
) -> T:
    """One record of a user file through `parse` (a `from_dict`). A record that is not a JSON object (refused
    with `not_object`), a `SpecError` of `parse` and a malformed record all become `SpecError(field, ...)`
    whose message starts with `where` (the file and the record's line or number)."""
    if not isinstance(record, dict):
        raise SpecError(field, f"{where}: {not_object}")
    try:
        return parse(record)
    except SpecError as err:
        raise SpecError(field, f"{where}: {err}") from None
    except RECORD_ERRORS as err:
        raise SpecError(field, f"{where}: malformed {what} ({err})") from None


ZIP_BOMB_MIN_BYTES = 1_000_000  # the packing-ratio check applies to entries larger than this


def _zip_entry_problem(info: Any) -> str | None:
    """Why an archive entry is refused (path traversal, a link, encryption), or None."""
    import stat

    entry = info.filename
    parts = entry.replace("\\", "/").split("/")
    if entry.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", entry) or ".." in parts or "\0" in entry:
        return f"entry {entry[:200]!r} points outside the folder"
    if stat.S_ISLNK(info.external_attr >> 16):
        return f"entry {entry[:200]!r} is a symbolic link"
    if info.flag_bits & 0x1:
        return f"entry {entry[:200]!r} is encrypted"
    return None


def open_zip(data: bytes, *, field: str, name: str, max_bytes: int, max_entries: int) -> tuple[Any, list[Any]]:
    """The uploaded archive `data` as (ZipFile, its entries), after checking it whole: at most `max_bytes`
    and `max_entries`, readable, and no entry with an absolute path, a drive letter, a `..` part or a NUL, no
    symbolic link, no encrypted entry, no name twice (SpecError starting with `name`). Nothing is unpacked."""
    import zipfile
    import zlib

    if len(data) > max_bytes:
        raise SpecError(field, f"{name} is larger than the limit of {_mb(max_bytes)}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, zlib.error) as err:
        raise SpecError(field, f"{name} is not a readable zip archive ({err})") from None
    if len(entries) > max_entries:
        raise SpecError(field, f"{name} has {len(entries):,} entries (the limit is {max_entries:,})")
    seen: set[str] = set()
    for info in entries:
        problem = _zip_entry_problem(info)
        if problem:
            raise SpecError(field, f"{name}: {problem}")
        if info.filename in seen:
            raise SpecError(field, f"{name}: entry {info.filename[:200]!r} appears twice")
        seen.add(info.filename)
    return archive, entries


def unpack_zip(
    archive: Any,
    targets: list[tuple[Any, Path]],
    *,
    field: str,
    name: str,
    max_unpacked: int,
    max_ratio: int,
    max_entry_bytes: Callable[[Any], int],
) -> None:
    """Unpack each (entry, target path) of `archive` (from `open_zip`). Zip bombs are refused before anything is
    unpacked (declared sizes over `max_unpacked` in all, or an entry over 1 MB packed more than `max_ratio`:1)
    and stopped while unpacking (an entry growing past its declared size or `max_entry_bytes(entry)`, or the
    total past `max_unpacked`); a corrupt entry is refused. Errors are SpecError starting with `name`."""
    import zipfile
    import zlib

    declared = sum(info.file_size for info, _ in targets)
    if declared > max_unpacked:
        raise SpecError(field, f"{name} unpacks to {declared:,} bytes (the limit is {max_unpacked:,})")
    for info, _ in targets:
        if info.file_size > ZIP_BOMB_MIN_BYTES and info.file_size > max_ratio * max(info.compress_size, 1):
            raise SpecError(field, f"{name}: entry {info.filename[:200]!r} is packed more than {max_ratio}:1 "
                                   "(a zip bomb?)")  # fmt: skip
    total = 0
    for info, target in targets:
        written, cap = 0, min(info.file_size, max_entry_bytes(info))
        try:
            with archive.open(info) as source, open(target, "wb") as out:
                while chunk := source.read(1 << 20):
                    written += len(chunk)
                    total += len(chunk)
                    if written > cap or total > max_unpacked:
                        raise SpecError(field, f"{name}: entry {info.filename[:200]!r} unpacks to more than it "
                                               "declares or than the limits allow (a zip bomb?)")  # fmt: skip
                    out.write(chunk)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, zlib.error) as err:
            if isinstance(err, SpecError):
                raise
            raise SpecError(field, f"{name}: entry {info.filename[:200]!r} cannot be unpacked ({err})") from None


def gunzip_bounded(source: str | Path, target: Path, *, field: str, name: str, max_bytes: int) -> None:
    """Decompress the gzip file `source` to `target`, streamed: refused once the decompressed size passes
    `max_bytes` (a gzip bomb stops after at most one chunk past the cap), and when the file is not gzip, is
    cut short or its data are corrupt (SpecError starting with the user's file name `name`)."""
    import gzip
    import zlib

    total = 0
    with _open_regular(source, field=field, name=name) as raw:
        if not raw.read(1):
            raise SpecError(field, f"{name} is not a readable gzip file (it is empty)")
        raw.seek(0)
        try:
            with gzip.GzipFile(fileobj=raw, mode="rb") as unpacked, open(target, "wb") as out:
                while chunk := unpacked.read(1 << 20):
                    total += len(chunk)
                    if total > max_bytes:
                        raise SpecError(
                            field,
                            f"{name} decompresses to more than the limit of {_mb(max_bytes)} (a gzip bomb?)",
                        )
                    out.write(chunk)
        except (OSError, EOFError, zlib.error) as err:
            reason = "it is cut short" if isinstance(err, EOFError) else str(err) or type(err).__name__
            raise SpecError(field, f"{name} is not a readable gzip file ({reason})") from None
