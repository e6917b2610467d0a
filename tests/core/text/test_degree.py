"""How strongly a statement is put, from a small word list."""

from __future__ import annotations

import pytest

from core.text.degree import Degree, intensity


@pytest.mark.parametrize(
    ("text", "degree"),
    [
        ("careful", Degree.PLAIN),
        ("I'm fairly careful with money", Degree.PLAIN),
        ("pretty bold", Degree.PLAIN),
        ("very careful", Degree.STRONG),
        ("I'm extremely risk averse", Degree.STRONG),
        ("I really don't like risk", Degree.STRONG),
        ("a bit cautious", Degree.MILD),
        ("kind of a gambler", Degree.MILD),
        ("cautious-ish", Degree.MILD),
        ("slightly risk-seeking", Degree.MILD),
        ("not very careful", Degree.MILD),
        ("not too bold", Degree.MILD),
        ("really a bit careful", Degree.MILD),
        ("I'm too careful", Degree.PLAIN),
        ("", Degree.PLAIN),
    ],
)
def test_intensity(text: str, degree: Degree) -> None:
    assert intensity(text) is degree
