"""Every page test also walks the presentation rules (`tests/support/page_audit.py`): after each AppTest run a
test makes (`at.run()` or a widget's `.run()`), the page as it is then shown is audited, so the rules hold in
every state the page tests reach (empty, after a run, each replay tab, after an error)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from streamlit.testing.v1 import AppTest

from core.ui import PRESENT_KEY
from tests.support.page_audit import findings


def _presenting(app: AppTest) -> bool:
    try:
        return PRESENT_KEY in app.session_state and bool(app.session_state[PRESENT_KEY])
    except Exception:  # noqa: BLE001 - a run that failed before any state was set
        return False


@pytest.fixture(autouse=True)
def presentation_rules(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Audits the page after every `AppTest.run` of the test; the test fails at teardown on any finding."""
    problems: list[str] = []
    original = AppTest._run  # every run: `at.run()` and a widget's `.click().run()` (which skips `AppTest.run`)

    def run(self: AppTest, *args: object, **kwargs: object) -> AppTest:
        result = original(self, *args, **kwargs)  # type: ignore[arg-type]
        problems.extend(findings(self, presenting=_presenting(self)))
        return result

    monkeypatch.setattr(AppTest, "_run", run)
    yield problems
    if problems:
        pytest.fail("Presentation rules broken:\n" + "\n".join(dict.fromkeys(problems)), pytrace=False)
