"""The shared text toolkit: numbers, corrections, clauses, short answers, entities, contradictions, units."""

from __future__ import annotations

import pytest

from core.text.answers import Polarity, choose, polarity, wants_skip
from core.text.clauses import split_clauses
from core.text.clean import MAX_CHARS, clean
from core.text.contradictions import Claim, contradictions
from core.text.corrections import settle
from core.text.entities import EntityIndex
from core.text.numbers import find_numbers, find_percentages, words_to_digits
from core.text.ranges import split_range
from core.text.units import clock_times, find_durations, find_money, physical_units


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("twenty-five", "25"),
        ("two and a half days", "2.5 days"),
        ("a dozen eggs", "12 eggs"),
        ("half a dollar", "0.5 dollar"),
        ("two fifty per order", "2.5 per order"),
        ("three twenty-five each", "3.25 each"),
        ("two hundred fifty units", "250 units"),
        ("one thousand two hundred", "1200"),
        ("1 1/2 days", "1.5 days"),
        ("3/4 of a unit", "0.75 of a unit"),
        ("open 24/7", "open 24/7"),
        ("1.5k a month", "1500 a month"),
        ("minus three", "-3"),
        ("one time fee", "one time fee"),
    ],
)
def test_words_to_digits(text: str, expected: str) -> None:
    assert words_to_digits(text) == expected


def test_numbers_money_percentages_ranges() -> None:
    assert [n.value for n in find_numbers("1,200 units and .5 more")] == [1200, 0.5]
    assert [m.amount for m in find_money("$2.50 or 75 cents or EUR 3")] == [2.5, 0.75, 3]
    assert [p.value for p in find_percentages("20% off, 15 percent more")] == [0.2, 0.15]
    assert split_range("between 5 and 15 days") == ("5 days", "15 days")
    assert split_range("$2 to $3") == ("$2", "$3")
    assert [d.days for d in find_durations("2 weeks or a month")] == [14, 30]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Holding cost is not $2, it is $1", "Holding cost is $1"),
        ("Lead time is not 3 days, it's 5", "Lead time is 5 days"),
        ("Lead time used to be 5 days but now it's 2", "Lead time now it's 2"),
        ("holding cost is $2, sorry, $1", "holding cost is $1"),
        ("takes 2 days, no wait, make that 3", "takes 3 days"),
        ("lead time is 3 days - no - 4 days", "lead time is 4 days"),
        ("It was 3 days but now it's 5", "now it's 5"),
    ],
)
def test_corrections_keep_the_final_value(text: str, kept: str) -> None:
    settled = settle(text)
    assert settled.corrected and settled.text.strip() == kept


@pytest.mark.parametrize(
    "text", ["no more than 5 units", "not more than 20", "I'm not 100% sure", "capacity is 40"]
)
def test_corrections_leave_plain_statements(text: str) -> None:
    assert settle(text).text == text and not settle(text).corrected


def test_a_denied_value_is_dropped_even_without_a_replacement() -> None:
    assert "5 days" not in settle("No no, not 5 days! 5pm is the cutoff time").text


def test_clauses() -> None:
    assert split_clauses("we sell 20 a day, lead time is 3 days and it spoils") == [
        "we sell 20 a day",
        "lead time is 3 days",
        "it spoils",
    ]
    assert split_clauses("between 10 and 20 a day (give or take, and more on Fridays)") == [
        "between 10 and 20 a day (give or take, and more on Fridays)"
    ]
    assert split_clauses("Everett at 8:40, Lick later and Cobb too", commas=False) == [
        "Everett at 8:40, Lick later",
        "Cobb too",
    ]


@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("ok A I guess", 0),
        ("B obviously", 1),
        ("the second one", 1),
        ("c", 2),
        ("(b)", 1),
        ("option 2", 1),
        ("let's go with a", 0),
        ("not A, B", 1),
        ("the latter", 1),
        ("the last one", 2),
        ("I'd say b", 1),
        ("I'll take a look", None),
        ("A or B", None),
        ("hmm", None),
    ],
)
def test_choice_answers(text: str, index: int | None) -> None:
    assert choose(text, ["A", "B", "C"]) == index


def test_choice_by_an_options_own_words() -> None:
    assert choose("they just leave, it's a lost sale", ["A", "B"], [["lost"], ["backlog", "wait"]]) == 0


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("yes please", Polarity.YES),
        ("ok", Polarity.YES),
        ("nope", Polarity.NO),
        ("not sure", Polarity.UNSURE),
        ("I don't know", Polarity.UNSURE),
        ("Everett at 9", None),
    ],
)
def test_polarity(text: str, answer: Polarity | None) -> None:
    assert polarity(text) == answer


def test_skip() -> None:
    assert wants_skip("skip") and wants_skip("just use a default") and wants_skip("you decide")
    assert not wants_skip("lead time is 3 days")


def test_entities_exact_and_fuzzy() -> None:
    index = EntityIndex(
        {"everett": "Everett MS", "everett ms": "Everett MS", "lick": "Lick MS", "galileo": "Galileo HS"}
    )
    found = index.mentions("Move Everett MS later and lick earlier, galileo too.")
    assert [(m.entity, m.alias) for m in found] == [
        ("Everett MS", "everett ms"),
        ("Lick MS", "lick"),
        ("Galileo HS", "galileo"),
    ]
    assert index.fuzzy("everet") == ("Everett MS",)
    assert index.fuzzy("galilleo") == ("Galileo HS",)
    assert index.fuzzy("banana") == ()


def test_contradictions() -> None:
    claims = [
        Claim("Galileo", "direction", "earlier"),
        Claim("Galileo", "direction", "later"),
        Claim("Lick", "time", 480),
    ]
    assert [(a.value, b.value) for a, b in contradictions(claims)] == [("earlier", "later")]
    assert contradictions([Claim("Lick", "time", 480), Claim("Lick", "time", 480)]) == []


def test_units_and_clock_times() -> None:
    assert physical_units("Plan for 3 light-years") == ["light-years"]
    assert physical_units("holding is $2 per kg per day") == ["kg"]
    assert physical_units("€0.10 per chain per day, 5 boxes a week") == []
    assert [m for _, _, m in clock_times("call before 5pm or at 9:30 am")] == [17 * 60, 9 * 60 + 30]


def test_clean_removes_escape_sequences_and_caps_length() -> None:
    assert clean("\x1b[31mhello\x1b[0m")[0].strip() == "hello"
    text, cut = clean("x" * (MAX_CHARS + 5))
    assert cut and len(text) == MAX_CHARS


def test_classifier_features_negation_letters_and_numbers():
    from core.text.intents import negated_words, words_of

    assert negated_words("I don't like taking chances, but ok") == "like_neg taking_neg chances_neg"
    assert words_of("The freezer holds 150 tubs") == words_of("the freezer holds 40 tubs")


def test_classifier_features_mark_the_losing_side_of_a_comparison():
    from core.text.intents import contrasted_words

    assert contrasted_words("buses matter more than keeping times, really") == "keeping_than times_than"
    assert contrasted_words("times over buses") == "buses_than"
    assert contrasted_words("buses over times") == "times_than"
    assert contrasted_words("cut the peak") == ""


def test_word_order_of_a_priority_is_learned():
    from core.text.intents import Bank, IntentClassifier

    examples = {
        "buses": ("buses over times", "buses matter more than times", "buses before times"),
        "times": ("times over buses", "times matter more than buses", "times before buses"),
    }
    model = IntentClassifier(Bank(examples, {k: k for k in examples}))
    for text, intent in (
        ("I put buses over keeping times", "buses"),
        ("keeping times matters more than the buses", "times"),  # a coin flip on words alone
    ):
        got = model.predict(text)
        assert got.intent == intent and got.confidence > 0.8, got.ranking


def test_teaching_a_phrasing_is_adding_an_example():
    from core.text.intents import Bank, IntentClassifier

    examples = {
        "greet": ("hello", "hi there", "good morning", "hey"),
        "leave": (
            "they go elsewhere",
            "customers walk out",
            "they buy it somewhere else",
            "the sale is lost",
        ),
    }
    bank = Bank(examples, {k: k for k in examples})
    phrase = "folks nip over to the corner shop"
    before = IntentClassifier(bank).predict(phrase)
    taught = Bank(
        {**examples, "leave": (*examples["leave"], "they nip over to the shop on the corner")},
        bank.descriptions,
    )
    model = IntentClassifier(taught)
    after = model.predict(phrase)
    assert after.intent == "leave" and after.ranking[0][1] > dict(before.ranking)["leave"]
    many = model.predict_many(["hello", phrase])
    assert [p.intent for p in many] == ["greet", "leave"]
    assert many[1].confidence == pytest.approx(model.predict(phrase).confidence)


def test_the_clause_topics_and_facts_come_from_the_bank():
    from core.inventory.nlu.cues import facts, topics

    assert topics("the walk-in cooler fits 150 tubs") == ["max_inventory"]
    assert topics("each missed sale costs us $6") == ["penalty_cost"]
    assert topics("we have 10 in stock right now") == ["state"]
    assert topics("I run a small bakery") == []
    assert facts("they just go to the shop across the road") == "lost_sale"
    assert facts("they put their name down and wait") == "backlog"
    assert facts("nothing ever goes bad") == "not_perishable"
    assert facts("it's lumpy") is None


def test_numbers_outside_spans_skip_those_inside_money_or_durations():
    from core.text.numbers import find_numbers, outside
    from core.text.units import find_durations, find_money

    text = "3 crates, $5 each, every 2 weeks, 40 max"
    kept = outside(find_numbers(text), (*find_money(text), *find_durations(text)))
    assert [n.value for n in kept] == [3, 40]


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("at ten to eight", [470]),
        ("nine thirty", [570]),
        ("eight-forty please", [520]),
        ("half past nine", [570]),
        ("twenty to nine", [520]),
        ("a quarter past eight", [495]),
        ("half nine", [570]),
        ("start at 9.30", [570]),
        ("8.40am", [520]),
        ("at 0840", [520]),
        ("begin at 840", [520]),
        ("seven fifty, and nine thirty", [470, 570]),
        ("10 minutes to 8", [470]),
        ("Galileo should be 9.30", [570]),
        ("no later than 8.40", [520]),
    ],
)
def test_spoken_clock_times(text: str, minutes: list[int]) -> None:
    assert [m for _, _, m in clock_times(text, spoken=True)] == minutes


@pytest.mark.parametrize(
    "text",
    [
        "cut it from ten to eight minutes",
        "from ten to eight",
        "cap the peak at twenty-two hundred",
        "2,400 kids",
        "a peak of 23.5",
        "$9.30 each",
        "at 840 students",
        "nine thirty students",
        "keep it under 10.25",
        "at most 9.30",
    ],
)
def test_spoken_clock_times_leave_amounts_alone(text: str) -> None:
    assert clock_times(text, spoken=True) == []


def test_spoken_times_are_opt_in() -> None:
    """Without `spoken` a '9.30' is a price and 'nine thirty' a spoken amount, as the inventory chat reads them."""
    assert clock_times("it costs 9.30 or nine thirty") == []


def test_hours_as_minutes_and_hundreds() -> None:
    from core.text.units import hours_as_minutes

    assert hours_as_minutes("below half an hour") == "below 30 minutes"
    assert hours_as_minutes("a quarter of an hour") == "15 minutes"
    assert hours_as_minutes("an hour and a half, or 2 hours") == "90 minutes, or 120 minutes"
    assert words_to_digits("22 hundred students") == "2200 students"
    assert words_to_digits("twenty-two hundred") == "2200"


def test_anything_but_is_one_clause_and_an_exclusion() -> None:
    from core.text.clauses import split_clauses
    from core.text.negation import negated_at

    assert split_clauses("Galileo anything but 7:50") == ["Galileo anything but 7:50"]
    assert split_clauses("fine, but not 7:50") == ["fine", "not 7:50"]
    for window in ("keep Galileo away from ", "rule out ", "block the "):
        assert negated_at(window, len(window), exclusions=True), window
        assert not negated_at(window, len(window)), window


def test_and_inside_a_spoken_number_does_not_split() -> None:
    from core.text.clauses import split_clauses

    assert split_clauses("no more than twenty-one hundred and fifty students") == [
        "no more than twenty-one hundred and fifty students"
    ]
    assert split_clauses("Lick at 8:40 and Everett at 9:30") == ["Lick at 8:40", "Everett at 9:30"]


def test_dozens_written_in_digits() -> None:
    assert words_to_digits("no more than 8 dozen stems") == "no more than 96 stems"
    assert words_to_digits("five dozen jars") == "60 jars"


def test_a_shorter_word_is_no_misspelt_name() -> None:
    index = EntityIndex({"transition": "Transition Training Center (Access)", "everett": "Everett MS"})
    assert index.fuzzy("transit") == ()
    assert index.fuzzy("everet") == ("Everett MS",)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("i dont want that", "i don't want that"),
        ("it doesnt keep", "it doesn't keep"),
        ("we cant order more", "we can't order more"),
        ("they wont wait", "they won't wait"),
        ("the cantina sells wontons", "the cantina sells wontons"),
        ("im not sure", "i'm not sure"),
        ("theyre gone by noon, thats why", "they're gone by noon, that's why"),
        ("whats a backlog? Ill check", "what's a backlog? I'll check"),
        ("we were well, its fine", "we were well, its fine"),
    ],
)
def test_clean_restores_contractions_typed_without_apostrophe(typed: str, read: str) -> None:
    assert clean(typed)[0] == read


@pytest.mark.parametrize(
    ("text", "minutes"),
    [("set lick to 8 40 am", [520]), ("at 9 30pm", [1290]), ("we have 12 30 boxes", []), ("8 40", [])],
)
def test_a_clock_time_typed_with_a_space_needs_am_or_pm(text: str, minutes: list[int]) -> None:
    assert [m for _, _, m in clock_times(text)] == minutes


@pytest.mark.parametrize(("text", "days"), [("half a year", 180), ("half a month", 15), ("half a week", 3.5)])
def test_half_a_period_is_half_of_it_not_the_period(text: str, days: float) -> None:
    assert [d.days for d in find_durations(text)] == [days]


def test_a_dotted_time_before_a_comma_is_a_time_but_a_list_of_amounts_is_not() -> None:
    assert [m for _, _, m in clock_times("can't start at 7.50, the parents will riot", spoken=True)] == [470]
    assert clock_times("prices 7.50,8.40", spoken=True) == []
