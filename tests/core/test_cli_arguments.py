"""Issue 25: every argument of every command of `python -m core.cli` goes through `core/cli_args.py`.

The parser built by `core.cli.build_parser()` is walked recursively (every group, every subcommand). An
argument passes when its `type=` is one of the validated types of `core.cli_args` (`cli_args.is_validated`:
seeds, bounded whole numbers and finite numbers, bounded free text without control characters, checked
paths). Exempt are actions that take no value (help, store_true/false, store_const, count) and arguments
restricted by `choices=`: argparse refuses any value outside the listed choices, naming the flag, so the
choices are validation enough. A plain `int`, `float`, `str` or no type at all fails the test.

Then every numeric argument found is given NaN, infinities, 1e308 and 100,000-digit strings, and every
free-text or path argument NUL, escapes, unpaired surrogates and 100,000 characters: each must be refused at
parse time with exit 2 and an error naming that argument.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

import pytest

from core import cli, cli_args

NO_VALUE = (
    argparse._HelpAction,
    argparse._StoreTrueAction,
    argparse._StoreFalseAction,
    argparse._StoreConstAction,
    argparse._AppendConstAction,
    argparse._CountAction,
    argparse._VersionAction,
)
# The `experiment` group belongs to core/experiments/cli.py (another developer's part of issue 25). Its
# arguments that still lack a validated type, with the type of core.cli_args each should use:
PENDING_ELSEWHERE: dict[tuple[str, str], str] = {}  # arguments another change still has to type
NUMERIC_TYPES = {"whole number", "number", "seed", "word or whole number"}
HUGE_DIGITS = "9" * 100_000


def arguments(
    parser: argparse.ArgumentParser, command: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.Action]]:
    """(command words, action) for every argument of `parser` and of all its subparsers."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                yield from arguments(sub, (*command, word))
        else:
            yield command, action


def name_of(action: argparse.Action) -> str:
    """How argparse (and so the CLI's error object) names an argument: its last flag, else its metavar."""
    if action.option_strings:
        return action.option_strings[-1]
    return str(action.metavar or action.dest)


@pytest.fixture(scope="module")
def parser() -> argparse.ArgumentParser:
    return cli.build_parser()


@pytest.fixture(scope="module")
def all_arguments(parser: argparse.ArgumentParser) -> list[tuple[tuple[str, ...], argparse.Action]]:
    found = list(arguments(parser))
    groups = {command[0] for command, _ in found if command}
    assert {"runs", "experiment", "inventory", "schedule", "repair", "retail"} <= groups
    assert len(found) > 150  # the walk reaches the leaf commands, not just the groups
    return found


def takes_value(action: argparse.Action) -> bool:
    return not isinstance(action, NO_VALUE) and not action.choices


def test_every_argument_has_a_validated_type(all_arguments) -> None:
    unvalidated = sorted(
        (" ".join(command), name_of(action), getattr(action.type, "__name__", repr(action.type)))
        for command, action in all_arguments
        if takes_value(action) and not cli_args.is_validated(action.type)
    )
    missing = [row for row in unvalidated if row[:2] not in PENDING_ELSEWHERE]
    assert not missing, "arguments without a validated type from core.cli_args:\n" + "\n".join(
        map(str, missing)
    )


def test_plain_types_are_not_validated() -> None:
    for plain in (int, float, str, None, lambda text: text):
        assert not cli_args.is_validated(plain)


def parse_error(
    parser: argparse.ArgumentParser,
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
    action: argparse.Action,
    value: str,
) -> dict:
    """Parse `command` with `value` given to `action`; the CLI's JSON error object (the parse must fail)."""
    if action.option_strings:
        argv = [*command, f"{action.option_strings[-1]}={value}"]
    else:  # a positional argument, in its place: the others get a harmless value
        positionals = [a for a in parser_for(parser, command)._actions
                       if not a.option_strings and not isinstance(a, argparse._SubParsersAction)]  # fmt: skip
        argv = [*command, *[value if a is action else "x" for a in positionals]]
    with pytest.raises(SystemExit) as stop:
        parser.parse_args(argv)
    assert stop.value.code == 2, argv[:3]
    return json.loads(capsys.readouterr().err.strip().splitlines()[-1])


def parser_for(parser: argparse.ArgumentParser, command: tuple[str, ...]) -> argparse.ArgumentParser:
    for word in command:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = sub.choices[word]
    return parser


@pytest.mark.parametrize(
    "value",
    ["nan", "NaN", "inf", "-Infinity", "1e308", "-1e308", HUGE_DIGITS, "-" + "9" * 5_000, "1" * 4_301],
)
def test_numeric_arguments_refuse_non_finite_and_huge_values(
    parser, all_arguments, capsys, value: str
) -> None:
    numeric = [
        (command, action)
        for command, action in all_arguments
        if takes_value(action) and getattr(action.type, "__name__", "") in NUMERIC_TYPES
    ]
    assert len(numeric) > 30
    for command, action in numeric:
        error = parse_error(parser, capsys, command, action, value)
        assert error["field"] == name_of(action), (command, error)
        assert len(error["error"]) < 400, (command, error["error"][:200])  # the value is not echoed in full


@pytest.mark.parametrize("value", ["a\x00b", "a\x1b[31mb", "line\nbreak", "x" * 100_000, "   ", "\udcff"])
def test_text_and_path_arguments_refuse_control_characters_and_huge_text(
    parser, all_arguments, capsys, value: str
) -> None:
    texts = [
        (command, action)
        for command, action in all_arguments
        if takes_value(action)
        and cli_args.is_validated(action.type)
        and getattr(action.type, "__name__", "") not in NUMERIC_TYPES
        and not (value == "\udcff" and getattr(action.type, "__name__", "") != "text")  # paths may be bytes
    ]
    assert len(texts) > 20
    for command, action in texts:
        error = parse_error(parser, capsys, command, action, value)
        assert error["field"] == name_of(action), (command, error)
        assert len(error["error"]) < 600, (command, error["error"][:200])


def test_numbers_are_refused_by_length_before_conversion() -> None:
    """A 100,000-digit string is refused from its length: no int() or float() of it (linear time), and the
    message says the length instead of echoing the value."""
    for check in (cli_args.seed, cli_args.paths, cli_args.seconds, cli_args.weight, cli_args.workers):
        for text in (HUGE_DIGITS, "1" * 4_301, "0." + HUGE_DIGITS):
            with pytest.raises(argparse.ArgumentTypeError, match="characters") as refused:
                check(text)
            assert len(str(refused.value)) < 200


def test_free_text_and_word_or_number() -> None:
    name = cli_args.free_text(10, "a name")
    assert name("  Alice ") == "Alice"
    for bad in ("", " ", "x" * 11, "a\tb", "a\x7fb", "\ud800"):
        with pytest.raises(argparse.ArgumentTypeError):
            name(bad)
    count = cli_args.whole_or(("all",), 1, 50, "a count")
    assert count("ALL") == "all" and count("7") == 7
    for bad in ("0", "51", "many", "1e3", HUGE_DIGITS):
        with pytest.raises(argparse.ArgumentTypeError, match="'all'"):
            count(bad)
