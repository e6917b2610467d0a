"""The one validation layer for argument types the CLI commands share: seeds, counts, numbers, files,
output folders, store paths and limits (see `docs/limits.md`).

Every command of `python -m core.cli` takes these through `type=` of its parser, so a bad value is refused
before any work starts, with the same wording everywhere. `CliArgumentParser` turns argparse's usage errors
into the CLI's error object `{"error": ..., "field": ...}` (exit 2); `prepare_output_dir` and
`check_store_path` check what can only be checked when the command runs (creating a folder, opening a
store). The JSON-lines chats read and answer their lines through `chat_lines`, `chat_request`, `chat_error`
and `chat_line_out`.
"""

from __future__ import annotations

import argparse
import functools
import io
import json
import math
import os
import re
import sys
import traceback
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeVar

from core.config import MAX_LLM_RETRIES, MAX_LLM_TIMEOUT_S, PROVIDERS, Settings
from core.errors import OrcaError, ProviderError, SolverError, SpecError, StoreError
from core.store import json_safe
from core.store.runs import MAX_LIST_LIMIT

MAX_SEED = 2**32 - 1
MAX_PATHS = 1_000_000  # Monte Carlo paths of one command (the engine also bounds paths × periods)
MAX_SECONDS = 3_600.0  # a solver or training time budget
MAX_INPUT_BYTES = 50_000_000  # a CSV or JSON file read by a command
# An objective weight of the schedule MILP; equals solvers.schedule.model.MAX_WEIGHT (not imported: pulp is slow).
MAX_WEIGHT = 1e6
MAX_BOUND = 1e9  # an upper bound on an objective
MAX_BUDGET_USD = 1e6  # the --budget of one experiment run, in USD
MAX_LINE_CHARS = 8_000  # one chat line (JSON text) of the JSON-lines protocols: ~1,300 words
MAX_NUMBER_CHARS = 64  # a number typed on the command line (longer text is refused before parsing)
MAX_WORKERS = 64  # worker processes (or Ray CPUs) of one command: beyond it a machine thrashes long before
# cells finish sooner (the experiment engines enforce it too)
ENGINES = (
    "local",
    "ray",
)  # the experiment engines: a local process pool, or Ray (core/experiments/engines.py)
MAX_ID_CHARS = 200  # a run or experiment id, a name, a model name
MAX_PATH_CHARS = 4_096  # a file-system path (PATH_MAX on Linux)

T = TypeVar("T")
_VIRTUAL_ROOTS = (Path("/proc"), Path("/sys"), Path("/dev"))
_FIELD_RE = re.compile(r"^argument ([^:]+): ")
_REQUIRED_RE = re.compile(r"^the following arguments are required: ([^,\s]+)")
_UNRECOGNIZED_RE = re.compile(r"^unrecognized arguments: (\S+)")


class CliArgumentParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose usage errors are the CLI's JSON error object on stderr (exit 2).

    With `pretty = True` (set by `core.cli.main` for `--pretty`) it prints argparse's usual text instead.
    """

    pretty = False

    def error(self, message: str) -> NoReturn:
        if CliArgumentParser.pretty:  # for people: the usage, then `error: ...` as every --pretty refusal
            self.print_usage(sys.stderr)
            print(f"error: {self.prog}: {message}", file=sys.stderr)
            raise SystemExit(2)
        payload = {
            "error": f"{self.prog}: {message}",
            "field": usage_field(message),
            "usage": self.format_usage().strip(),
        }
        print(json.dumps(payload), file=sys.stderr)
        raise SystemExit(2)


def usage_field(message: str) -> str:
    """The flag or argument an argparse error message is about (`--seed`, `RUN_ID`, ...), else "arguments"."""
    for pattern in (_FIELD_RE, _REQUIRED_RE):
        match = pattern.match(message)
        if match:  # an option's names read "-h/--help": name it by the last one
            name = match.group(1)
            return name.split("/")[-1] if name.startswith("-") else name
    match = _UNRECOGNIZED_RE.match(message)
    return match.group(1) if match else "arguments"


_VALIDATED: set[Callable[[str], object]] = set()


def validated(check: Callable[[str], T]) -> Callable[[str], T]:
    """Register `check` as one of this module's argument types (see `is_validated`)."""
    _VALIDATED.add(check)
    return check


def is_validated(kind: object) -> bool:
    """Whether `kind` (an argparse `type=`) is an argument type of this module, which bounds what it accepts.

    `tests/core/test_cli_arguments.py` walks every parser of `python -m core.cli` and requires it."""
    return kind in _VALIDATED


def _named(name: str, check: Callable[[str], object]) -> Callable[[str], object]:
    check.__name__ = name  # argparse names the type in its fallback message
    return validated(check)


def _shown(text: object) -> str:
    """`text` for an error message: its repr, cut to 40 characters (a 100,000-digit value is not echoed)."""
    shown = repr(text)
    return shown if len(shown) <= 40 else f"{shown[:30]}… ({len(str(text)):,} characters)"


def _short(text: str, what: str) -> str:
    """`text` stripped, refused when longer than `MAX_NUMBER_CHARS` (checked before any int() or float())."""
    cleaned = str(text).strip()
    if len(cleaned) > MAX_NUMBER_CHARS:
        raise argparse.ArgumentTypeError(
            f"expected {what}, got {len(cleaned):,} characters (at most {MAX_NUMBER_CHARS} are read)"
        )
    return cleaned


def _integer(text: str, what: str) -> int:
    cleaned = _short(text, what).replace("_", "")
    if not re.fullmatch(r"[-+]?\d{1,40}", cleaned):
        raise argparse.ArgumentTypeError(f"expected {what}, got {_shown(text)}")
    return int(cleaned)


@validated
def seed(text: str) -> int:
    """A random seed: a whole number from 0 to 4294967295 (what numpy and torch accept)."""
    value = _integer(text, "a whole-number seed")
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {MAX_SEED}, got {value}")
    return value


def whole(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """A whole number in `[low, high]`."""

    def check(text: str) -> int:
        value = _integer(text, what)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must lie between {low:,} and {high:,}, got {value:,}")
        return value

    return _named("whole number", check)  # type: ignore[return-value]


def number(
    low: float, high: float, *, low_open: bool = False, what: str = "a number"
) -> Callable[[str], float]:
    """A finite number in `[low, high]` (`(low, high]` with `low_open`); NaN and infinities are refused."""

    def check(text: str) -> float:
        try:
            value = float(_short(text, what))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {_shown(text)}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, got {_shown(text)}")
        if value < low or (low_open and value == low) or value > high:
            left = "(" if low_open else "["
            raise argparse.ArgumentTypeError(f"must lie in {left}{low:g}, {high:g}], got {value:g}")
        return value

    return _named("number", check)  # type: ignore[return-value]


paths = whole(1, MAX_PATHS, "a whole number of paths")
list_limit = whole(1, MAX_LIST_LIMIT, "a whole number of rows")
seconds = number(0.0, MAX_SECONDS, low_open=True, what="a number of seconds")
weight = number(0.0, MAX_WEIGHT, what="an objective weight")
bound = number(0.0, MAX_BOUND, what="an upper bound")
llm_timeout = number(0.0, MAX_LLM_TIMEOUT_S, low_open=True, what="a number of seconds")
llm_retries = whole(0, MAX_LLM_RETRIES, "a whole number of retries")
workers = whole(1, MAX_WORKERS, "a whole number of worker processes")
budget_usd = number(0.0, MAX_BUDGET_USD, low_open=True, what="an amount of USD")


def free_text(max_chars: int, what: str = "a text") -> Callable[[str], str]:
    """Free text such as an id or a name: not blank, at most `max_chars` characters, no control characters
    (NUL, newlines, escapes) and valid Unicode (bytes that are not UTF-8 arrive as unpaired surrogates)."""

    def check(value: str) -> str:
        cleaned = str(value).strip()
        if not cleaned:
            raise argparse.ArgumentTypeError(f"expected {what}, got an empty string")
        if len(cleaned) > max_chars:
            raise argparse.ArgumentTypeError(
                f"expected {what} of at most {max_chars:,} characters, got {len(cleaned):,}"
            )
        bad = next((c for c in cleaned if unicodedata.category(c) in ("Cc", "Cs")), None)
        if bad is not None:
            surrogate = "\ud800" <= bad <= "\udfff"
            kind = "an unpaired surrogate (not valid Unicode)" if surrogate else "a control character"
            raise argparse.ArgumentTypeError(f"{what} contains {kind} ({bad!r})")
        return cleaned

    return _named("text", check)  # type: ignore[return-value]


def name_weight(text: str) -> tuple[str, float]:
    """`NAME=WEIGHT`: a row, column or family name (free text without `=` at the end) and a weight in
    (0, MAX_WEIGHT] (the LP Repair Lab's `repair solve --weight`)."""
    cleaned = free_text(MAX_ID_CHARS + MAX_NUMBER_CHARS, "NAME=WEIGHT")(text)
    name, sep, value = cleaned.rpartition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=WEIGHT, got {_shown(text)}")
    weight = number(0.0, MAX_WEIGHT, low_open=True, what="a weight")(value)
    return free_text(MAX_ID_CHARS, "a name")(name), weight


validated(name_weight)


def whole_or(words: tuple[str, ...], low: int, high: int, what: str) -> Callable[[str], int | str]:
    """One of `words` (lower-cased) or a whole number in `[low, high]`, e.g. "all" or a count."""

    def check(value: str) -> int | str:
        cleaned = str(value).strip().lower()
        if cleaned in words:
            return cleaned
        choices = " or ".join(repr(w) for w in words)
        try:
            number_of = _integer(value, what)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(f"use {choices}, or {what}; got {_shown(value)}") from None
        if not low <= number_of <= high:
            raise argparse.ArgumentTypeError(
                f"use {choices}, or {what} from {low:,} to {high:,}; got {number_of:,}"
            )
        return number_of

    return _named("word or whole number", check)  # type: ignore[return-value]


def word(words: tuple[str, ...], what: str) -> Callable[[str], str]:
    """One of `words` (case and surrounding spaces ignored), e.g. a harness name; the error lists them."""

    def check(value: str) -> str:
        cleaned = _short(value, what).lower()
        if cleaned not in words:
            raise argparse.ArgumentTypeError(f"expected {what}: {' or '.join(words)}; got {_shown(value)}")
        return cleaned

    return _named("word", check)  # type: ignore[return-value]


identifier = free_text(MAX_ID_CHARS, "an id")  # a run or experiment id: the store says whether it exists
label = free_text(MAX_ID_CHARS, "a name")
model_name = free_text(MAX_ID_CHARS, "a model name")
_role_text = free_text(MAX_ID_CHARS + 60, "ROLE=provider:model")


def role(text: str) -> tuple[str, Any]:
    """`--role ROLE=provider:model` as (role, `core.llm.roles.RoleModel`): a known provider, a model name, a
    role name of lower-case letters, digits and _."""
    from core.llm.roles import parse_role

    try:
        return parse_role(_role_text(text))
    except SpecError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("--role: ").removeprefix("--role.")) from None


_named("role", role)
url = free_text(2_000, "a URL")


def _os_safe(check: Callable[[str], T]) -> Callable[[str], T]:
    """A path check whose file-system errors (name too long, permission, loops) are refusals, not crashes."""

    @functools.wraps(check)
    def safe(text: str) -> T:
        try:
            return check(text)
        except OSError as err:
            where = f"{err.filename}" if err.filename else str(text)[:200]
            raise argparse.ArgumentTypeError(f"cannot use {where[:200]}: {err.strerror or err}") from None
        except ValueError as err:  # e.g. an embedded NUL character
            raise argparse.ArgumentTypeError(f"not a usable path ({err})") from None

    return safe


def _under_virtual_fs(path: Path) -> bool:
    return any(path == root or root in path.parents for root in _VIRTUAL_ROOTS)


@validated
@_os_safe
def input_file(text: str) -> Path:
    """An existing regular file of at most `MAX_INPUT_BYTES` (not a folder, not a device)."""
    _path_text(text, "a file path")
    path = Path(text).expanduser()
    if not path.exists():
        raise argparse.ArgumentTypeError(f"file not found: {path}")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a folder; give a file")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{path} is not a regular file")
    if path.stat().st_size > MAX_INPUT_BYTES:
        raise argparse.ArgumentTypeError(f"{path} is larger than {MAX_INPUT_BYTES:,} bytes")
    return path


@validated
@_os_safe
def path_text(text: str) -> Path:
    """A file-system path checked later by its command (e.g. a file or a folder, depending on another flag):
    not blank, at most `MAX_PATH_CHARS` characters, no control characters."""
    return Path(_path_text(text)).expanduser()


def _path_text(text: str, what: str = "a path") -> str:
    """`text` as a path: not blank, at most `MAX_PATH_CHARS` characters, no control characters (NUL, newline,
    escapes). Bytes that are not UTF-8 (unpaired surrogates) are kept: such a file name is legal."""
    if not str(text).strip():
        raise argparse.ArgumentTypeError(f"expected {what}, got an empty string")
    if len(str(text)) > MAX_PATH_CHARS:
        raise argparse.ArgumentTypeError(
            f"a path has at most {MAX_PATH_CHARS:,} characters, got {len(str(text)):,}"
        )
    bad = next((c for c in str(text) if unicodedata.category(c) == "Cc"), None)
    if bad is not None:
        raise argparse.ArgumentTypeError(f"a path may not contain a control character ({bad!r})")
    return str(text)


@validated
@_os_safe
def input_path(text: str) -> Path:
    """An existing file or folder (e.g. a results file or the folder holding it)."""
    path = Path(_path_text(text)).expanduser()
    if not path.exists():
        raise argparse.ArgumentTypeError(f"not found: {path}")
    return path


@validated
@_os_safe
def input_dir(text: str) -> Path:
    """An existing folder."""
    _path_text(text, "a folder path")
    path = Path(text).expanduser()
    if not path.is_dir():
        raise argparse.ArgumentTypeError(
            f"{path} is not a folder" if path.exists() else f"folder not found: {path}"
        )
    return path


@validated
@_os_safe
def output_dir(text: str) -> Path:
    """A folder to write into: it exists, or can be made below the nearest existing folder.

    Refused: an empty path (it would silently mean the current folder), an existing file, a path below a
    file, and paths under /proc, /sys and /dev.
    """
    _path_text(text, "a folder path")
    path = Path(text).expanduser().absolute()
    if _under_virtual_fs(path):
        raise argparse.ArgumentTypeError(f"{path} is on a system file system; choose a normal folder")
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} exists and is not a folder")
    parent = next(p for p in path.parents if p.exists()) if not path.exists() else path
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"{path} lies below {parent}, which is a file, not a folder")
    return path


def prepare_output_dir(path: Path, field: str = "--out") -> Path:
    """Create the folder `path` (checked by `output_dir`) now; an `OSError` becomes a `SpecError` on `field`."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".orca-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise SpecError(field, f"cannot write into {path}: {err.strerror or err}") from None
    return path


@validated
@_os_safe
def output_file(text: str) -> Path:
    """A file to write: not a folder, in a folder that exists or can be made."""
    _path_text(text, "a file path")
    path = Path(text).expanduser().absolute()
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a folder; give a file name")
    output_dir(str(path.parent))
    return path


def checked(check: Callable[[str], T], text: str, field: str, prefix: str = "") -> T:
    """Run an argument check inside a command: its refusal becomes a `SpecError` on `field`."""
    try:
        return check(text)
    except argparse.ArgumentTypeError as err:
        raise SpecError(field, f"{prefix}{err}") from None


@validated
@_os_safe
def db_path(text: str) -> Path:
    """The `--db` flag: a run-store file path (not a folder)."""
    _path_text(text, "a run-store file path")
    path = Path(text).expanduser()
    if path.is_dir():
        raise argparse.ArgumentTypeError(
            f"{path} is a folder; give the run-store file, e.g. {path / 'orca.duckdb'}"
        )
    if _under_virtual_fs(path.absolute()):
        raise argparse.ArgumentTypeError(f"{path} is on a system file system; choose a normal folder")
    return path


def check_store_path(path: Path, *, explicit: bool, create: bool) -> bool:
    """Whether the store at `path` exists; refuse what would silently create an unintended store.

    Read commands (`create=False`) never create a store: a missing `--db` file is a `SpecError` (a typo would
    otherwise show an empty history); a missing default store just means no runs yet (False). Writing
    commands create the file, but an explicit `--db` must lie in an existing folder.
    """
    path = Path(path).expanduser()
    try:
        return _check_store_path(path, explicit=explicit, create=create)
    except OSError as err:
        raise SpecError("--db", f"cannot use {str(path)[:200]}: {err.strerror or err}") from None


def _check_store_path(path: Path, *, explicit: bool, create: bool) -> bool:
    if path.exists():
        if not path.is_file():
            raise SpecError("--db", f"{path} is not a file")
        return True
    if not explicit:
        return False
    if not path.parent.is_dir():
        raise SpecError(
            "--db", f"the folder {path.parent} does not exist (a typo?); create it first or fix the path"
        )
    if not create:
        raise SpecError(
            "--db", f"no run store at {path} (a typo?); read commands never create one. Check the path"
        )
    if not os.access(path.parent, os.W_OK):
        raise SpecError("--db", f"cannot create a run store in {path.parent}: not writable")
    return False


def command_group(subparsers: argparse._SubParsersAction, name: str, help: str) -> argparse._SubParsersAction:
    """Add the CLI group `name` and return where its commands go; every group names its command the same
    way (`args.command`, shown as COMMAND), so the help and the dispatch read alike across groups."""
    group = subparsers.add_parser(name, help=help)
    return group.add_subparsers(title="commands", dest="command", metavar="COMMAND", required=True)


def id_command(
    commands: argparse._SubParsersAction,
    name: str,
    help: str,
    func: Callable[[argparse.Namespace], Any],
    *,
    dest: str = "run_id",
    metavar: str = "RUN_ID",
) -> argparse.ArgumentParser:
    """The command `name` of a group that acts on one stored run or experiment: its id (typed `identifier`) is
    the first positional argument; returns the command's parser for its other arguments."""
    parser = commands.add_parser(name, help=help)
    parser.add_argument(dest, metavar=metavar, type=identifier)
    parser.set_defaults(func=func)
    return parser


def add_engine_flags(parser: argparse.ArgumentParser) -> None:
    """`--engine/--workers/--quiet` of a command that runs an experiment's cells (core.experiments.engines)."""
    parser.add_argument(
        "--engine", choices=ENGINES, default="local", help="local process pool (default) or ray"
    )
    parser.add_argument(
        "--workers",
        type=workers,
        default=2,
        help=f"worker processes / Ray CPUs (default 2, at most {MAX_WORKERS})",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def add_cache_flags(parser: argparse.ArgumentParser) -> None:
    """`--cache/--no-cache`: answer repeated LLM requests from the store's reply cache (default off)."""
    parser.add_argument(
        "--cache",
        dest="cache",
        action="store_true",
        default=False,
        help="reuse stored replies to identical LLM requests, and store new ones (default: --no-cache)",
    )
    parser.add_argument("--no-cache", dest="cache", action="store_false", help="send every LLM request (default)")


def add_role_flags(parser: argparse.ArgumentParser) -> None:
    """`--role ROLE=provider:model`, repeatable: the model of a role for every agent (read back as a dict)."""
    parser.add_argument(
        "--role",
        type=role,
        action="append",
        metavar="ROLE=PROVIDER:MODEL",
        help="the model of one role of every agent (e.g. judge=openai:gpt-4o-mini; repeat for more roles; "
        "offline:NAME names an offline stand-in explicitly)",
    )


def add_cost_flags(parser: argparse.ArgumentParser) -> None:
    """`--dry-run` (estimate calls and USD, run nothing) and `--budget USD` (stop starting cells once spent)."""
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="estimate the model calls, tokens and USD of the cells still to run, and run nothing",
    )
    parser.add_argument(
        "--budget",
        type=budget_usd,
        metavar="USD",
        help="start no new cell once the cells run cost this much at list price (data/llm_prices.toml); "
        "the others stay pending, so rerunning resumes",
    )


def add_llm_flags(parser: argparse.ArgumentParser) -> None:
    """`--llm-timeout` and `--llm-retries` (default: $ORCA_LLM_TIMEOUT, $ORCA_LLM_RETRIES, else Settings')."""
    parser.add_argument(
        "--llm-timeout",
        type=llm_timeout,
        help="seconds to wait for one LLM answer (default: $ORCA_LLM_TIMEOUT or 60)",
    )
    parser.add_argument(
        "--llm-retries",
        type=llm_retries,
        help="retries of a failed LLM request (default: $ORCA_LLM_RETRIES or 2)",
    )


def add_provider_flags(parser: argparse.ArgumentParser) -> None:
    """`--provider/--model/--base-url` and the `add_llm_flags` pair, read back by `provider_settings`."""
    parser.add_argument("--provider", choices=PROVIDERS, help="LLM provider (default: from the environment)")
    parser.add_argument("--model", type=model_name, help="model name (default: the provider's default)")
    parser.add_argument(
        "--base-url", type=url, help="provider base URL (e.g. a local OpenAI-compatible server)"
    )
    add_llm_flags(parser)


def provider_settings(args: argparse.Namespace) -> Settings:
    """Settings from the environment with the flags of `add_provider_flags` (and a command's `--seed`) applied:
    the provider brings its key and URL (see `Settings.from_cli`)."""
    return Settings.from_cli(
        args.provider,
        args.model,
        args.base_url,
        getattr(args, "seed", None),
        timeout_s=getattr(args, "llm_timeout", None),
        max_retries=getattr(args, "llm_retries", None),
    )


# --- the JSON-lines chat protocols ---


def check_resumable(store: Any, run_id: str) -> None:
    """Refuse to `--resume` a run another live session is writing (two writers would interleave its turns)."""
    holder = store.in_use(run_id)
    if holder is not None:
        raise SpecError(
            "--resume", f"run {run_id} is in use by a live session ({holder}); end that session first"
        )


def chat_lines(stream: TextIO, limit: int = MAX_LINE_CHARS) -> Iterator[str | SpecError]:
    """The non-blank lines of a chat's stdin, each read with bounded memory.

    A line longer than `limit` characters is consumed to its end and yielded as a `SpecError` saying the
    limit, so the protocol answers it and goes on. Bytes that are not UTF-8 arrive as lone surrogates
    (`surrogateescape`), which `chat_request` refuses, instead of ending the session with a decode error.
    """
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="surrogateescape")
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith("\n"):
            size = len(line)
            while not line.endswith("\n"):
                line = stream.readline(1 << 16)
                if not line:
                    break
                size += len(line)
            yield SpecError(
                "input",
                f"the line has {size:,} characters; a chat line may have at most {limit:,}: send a shorter message",
            )
            continue
        if line.strip():
            yield line


def _unpaired_surrogate(value: object, where: str) -> str | None:
    """The field path of the first string in `value` that is not valid Unicode, else None."""
    stack = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return path
        elif isinstance(item, dict):
            stack += [(v, str(k)) for k, v in item.items()] + [(k, path) for k in item]
        elif isinstance(item, list):
            stack += [(v, path) for v in item]
    return None


def chat_request(line: str) -> dict[str, Any]:
    """One chat line decoded: a JSON object of valid Unicode, else a `SpecError` naming what is wrong."""
    if len(line.rstrip("\r\n")) > MAX_LINE_CHARS:
        raise SpecError("input", f"a chat line may have at most {MAX_LINE_CHARS:,} characters")
    try:
        data = json.loads(line)
    except json.JSONDecodeError as err:
        raise SpecError("input", f"your line is not valid JSON ({err.msg} at column {err.colno})") from None
    except RecursionError:
        raise SpecError("input", "your line nests JSON arrays or objects too deeply") from None
    except ValueError as err:  # a whole number past Python's digit limit (json.loads' int conversion)
        raise SpecError("input", f"your line holds a number that cannot be read ({str(err)[:80]})") from None
    if not isinstance(data, dict):
        raise SpecError("input", 'each line must be a JSON object such as {"user": "..."}')
    bad = _unpaired_surrogate(data, "input")
    if bad is not None:
        raise SpecError(
            bad, "contains an unpaired surrogate (such as \\ud800), which is not valid Unicode text"
        )
    return data


def chat_line_out(payload: dict[str, Any]) -> str:
    """One protocol output line: strict JSON (NaN and infinities become null), ending in a newline."""
    return json.dumps(json_safe(payload), default=str, allow_nan=False) + "\n"


def chat_error(err: OrcaError) -> dict[str, str]:
    """The CLI's and the protocols' `{"error", "field"}` object; `field` names the input or the failing
    service (provider, solver, store)."""
    if isinstance(err, SpecError):
        field = err.field
    elif isinstance(err, ProviderError):
        field = "provider"
    elif isinstance(err, SolverError):
        field = "solver"
    elif isinstance(err, StoreError):
        field = "store"
    else:
        field = "input"
    return {"error": str(err), "field": field}


def internal_error(err: Exception) -> dict[str, str]:
    """A bug inside one chat turn: reported on its line (traceback on stderr), the session goes on."""
    traceback.print_exc(file=sys.stderr)
    return {"error": f"internal error ({type(err).__name__}: {err}); please report it", "field": "internal"}
