"""The mention model (`core.text.mentions`): one parse per message, every example of issue 27 item 1 as a test
of what the parse reads, a property test that it never raises and grows linearly, and its cache."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli_args import MAX_LINE_CHARS
from core.text.mentions import Kind, Mention, Message, Scope, parse
from tests.support.scans import counting_scans

SCHOOLS = {
    "Everett Middle School": ["Everett", "Everett Middle"],
    "Lick-Wilmerding High": ["Lick", "Lick-Wilmerding"],
    "Roosevelt Elementary": ["Roosevelt"],
}


def only(message: Message, *kinds: Kind, live_only: bool = True) -> Mention:
    found = message.of(*kinds, live_only=live_only)
    assert len(found) == 1, found
    return found[0]


# ------------------------------------------------------------------------------------ quantities and containers


def test_six_crates_of_24_is_144_items() -> None:
    m = only(parse("I got six crates of 24 this morning"), Kind.QUANTITY)
    assert (m.value, m.multiplier, m.amount, m.container, m.unit) == (6, 24, 144, "crate", "item")


def test_a_dozen_and_a_half_is_18() -> None:
    m = only(parse("we sell a dozen and a half a day"), Kind.QUANTITY)
    assert (m.value, m.multiplier, m.amount, m.per) == (18, 1, 18, "day")


def test_half_a_dozen_and_two_dozen_and_a_half() -> None:
    assert only(parse("half a dozen"), Kind.QUANTITY).amount == 6
    assert only(parse("two dozen and a half"), Kind.QUANTITY).amount == 30


def test_cases_of_a_dozen_resolve_the_other_cases_of_the_message() -> None:
    size, count = parse("they come in cases of a dozen and I keep 10 cases").of(Kind.QUANTITY)
    assert (size.container, size.multiplier, size.value) == ("case", 12, 1)
    assert (count.container, count.value, count.multiplier, count.amount) == ("case", 10, 12, 120)


def test_a_container_of_unknown_size_has_no_unit() -> None:
    m = only(parse("I keep 10 cases"), Kind.QUANTITY)
    assert (m.container, m.multiplier, m.unit) == ("case", 1, None)


@pytest.mark.parametrize(
    ("text", "value", "unit", "per"),
    [
        ("we use 5 litres a day", 5, "litre", "day"),
        ("we go through 3 litres of milk a day", 3, "litre", "day"),
        ("about 40 kilos per week", 40, "kg", "week"),
        ("2 pounds of flour a month", 2, "lb", "month"),
        ("200 lbs yearly", 200, "lb", "year"),
        ("24 bottles per month", 24, "item", "month"),
    ],
)
def test_measures_and_rates(text: str, value: float, unit: str, per: str) -> None:
    m = only(parse(text), Kind.QUANTITY)
    assert (m.value, m.unit, m.per, m.period) == (value, unit, per, per)


# ---------------------------------------------------------------------------------------------------- money


def test_rent_is_money_for_the_whole_business() -> None:
    message = parse("holding? I pay 2000 a month rent ... skip")
    m = only(message, Kind.MONEY)
    assert (m.value, m.per, m.role, m.whole_business) == (2000, "month", "rent", True)
    assert message.clauses[0].text == "holding?"


def test_wages_and_a_total_are_whole_business_money() -> None:
    assert only(parse("I pay my staff 300 a week"), Kind.MONEY).role == "wages"
    assert only(parse("I pay my staff 300 a week"), Kind.MONEY).whole_business
    total = only(parse("about $119 a week in total"), Kind.MONEY)
    assert (total.value, total.per, total.whole_business) == (119, "week", True)


def test_purchase_price_sale_price_and_loss_are_told_apart() -> None:
    message = parse("A tube costs me 4 dollars and I sell it for 11, so I lose about 7 per missed sale")
    bought, sold, lost = message.of(Kind.MONEY)
    assert (bought.value, bought.role, bought.per) == (4, "purchase_price", "unit")
    assert (sold.value, sold.role) == (11, "sale_price")
    assert (lost.value, lost.role, lost.per_unit) == (7, "loss", True)
    assert lost.scope & Scope.HEDGED and lost.live
    assert not any(m.whole_business for m in message.mentions)


def test_fifty_cents_per_bag_per_day() -> None:
    m = only(parse("50 cents per bag per day"), Kind.MONEY)
    assert (m.value, m.unit, m.per, m.period, m.per_unit) == (0.5, "USD", "unit/day", "day", True)


def test_spoken_and_signed_money() -> None:
    assert only(parse("it costs 2 dollars 50"), Kind.MONEY).value == 2.5
    assert only(parse("£3 a kilo"), Kind.MONEY).unit == "GBP"
    assert only(parse("we pay 1.2k a month for the unit"), Kind.MONEY).value == 1200


# ---------------------------------------------------------------------------------------------------- durations


def test_about_a_week_is_a_hedged_duration() -> None:
    m = only(parse("they last about a week in the fridge"), Kind.DURATION)
    assert (m.value, m.unit, m.days) == (1, "week", 7)
    assert m.scope & Scope.HEDGED


def test_about_119_a_week_is_a_rate_not_a_duration() -> None:
    message = parse("about 119 a week in total")
    assert not message.of(Kind.DURATION, Kind.CLOCK)
    assert only(message, Kind.QUANTITY).per == "week"


# ---------------------------------------------------------------------------------------------------- scopes


def test_x_wait_no_y_corrects_x() -> None:
    old, new = parse("20, wait no, 25").of(Kind.QUANTITY, live_only=False)
    assert old.scope & Scope.CORRECTED and not old.live
    assert new.live and new.value == 25


def test_a_correction_after_other_words_and_its_unit() -> None:
    old, new = parse("2 weeks lead time, no wait, 10 days").of(Kind.DURATION, live_only=False)
    assert old.scope & Scope.CORRECTED and new.live and new.days == 10


def test_says_x_but_really_y_keeps_y_with_the_unit_of_x() -> None:
    old, new = parse("the catalogue says 5 days but really 8").mentions
    assert old.scope & Scope.CORRECTED and not old.live
    assert new.live and (new.kind, new.value, new.unit) == (Kind.DURATION, 8, "day")


def test_used_to_be_x_now_y() -> None:
    old, new = parse("it used to be 10 but now it's 12").mentions
    assert not old.live and new.live and new.value == 12


def test_not_x_its_y() -> None:
    old, new = parse("not 2 days, it's 3").mentions
    assert old.scope & Scope.NEGATED and new.live and (new.kind, new.unit) == (Kind.DURATION, "day")


def test_my_partner_thinks_10_is_someone_elses_value() -> None:
    m = only(parse("my partner thinks 10"), Kind.QUANTITY, live_only=False)
    assert m.scope & Scope.OTHERS and not m.live
    assert parse("I think 10").mentions[0].live


def test_if_it_were_10_is_hypothetical() -> None:
    m = only(parse("if it were 10 I'd be happy"), Kind.QUANTITY, live_only=False)
    assert m.scope & Scope.HYPOTHETICAL and not m.live


def test_if_you_mean_the_fee_the_value_after_the_comma_is_read() -> None:
    m = only(parse("if you mean the fee, about ten cents"), Kind.MONEY)
    assert (m.value, m.role) == (0.1, "fee") and m.live


def test_whats_a_5_on_that_scale_is_a_question() -> None:
    message = parse("what's a 5 on that scale? I don't like gambling")
    m = only(message, Kind.QUANTITY, live_only=False)
    assert m.scope & Scope.QUESTION and not m.live
    assert not message.of()  # nothing live: no answer 'A', no value
    assert message.clauses[0].question


def test_is_5_too_high_is_a_question() -> None:
    assert parse("is 5 too high?").mentions[0].scope & Scope.QUESTION


def test_what_do_you_mean_by_setup_is_a_definition_request() -> None:
    message = parse("what do you mean by setup? it's about 20 each time")
    assert message.clauses[0].definition == "setup"
    assert message.of(Kind.QUANTITY, Kind.MONEY)  # the value stated with it is read


def test_a_value_in_a_definition_request_is_not_live() -> None:
    m = parse("what does 5 mean on the risk scale?").mentions[0]
    assert m.scope & Scope.DEFINITION and not m.live


@pytest.mark.parametrize("text", ["maybe 10", "10 or so", "30ish", "12?", "I guess 8", "roughly 15"])
def test_hedges(text: str) -> None:
    m = only(parse(text), Kind.QUANTITY)
    assert m.scope & Scope.HEDGED and m.live


def test_a_polite_request_is_no_question_about_its_time() -> None:
    m = only(parse("Can Everett start at 8:40?", names=SCHOOLS), Kind.CLOCK)
    assert m.live and m.value == 8 * 60 + 40


# ---------------------------------------------------------------------------------------------- clock and dates


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("8:40", 520),
        ("start at 8.40am", 520),
        ("half past eight", 510),
        ("at 2:15 pm", 855),
        ("start at 840", 520),
    ],
)
def test_clock_times(text: str, minutes: int) -> None:
    assert only(parse(text), Kind.CLOCK).value == minutes


def test_a_price_with_a_dot_is_no_clock_time() -> None:
    message = parse("it costs 8.40")
    assert not message.of(Kind.CLOCK) and only(message, Kind.MONEY).value == 8.4


def test_dates() -> None:
    values = [m.value for m in parse("on March 3rd, on 2026-03-04, on 4 July and Monday").of(Kind.DATE)]
    assert values == ["--03-03", "2026-03-04", "--07-04", "monday"]


# ------------------------------------------------------------------------------------------------------ names


def test_school_names_through_aliases() -> None:
    message = parse("Put Lick at 8:30, not Everett", names=SCHOOLS)
    assert [m.value for m in message.of(Kind.NAME)] == ["Lick-Wilmerding High"]
    negated = message.of(Kind.NAME, live_only=False)[1]
    assert negated.value == "Everett Middle School" and negated.scope & Scope.NEGATED


def test_a_name_in_a_request_question_is_live() -> None:
    message = parse(
        "Can Everett Middle School start a little later? The parents keep asking for it.", names=SCHOOLS
    )
    assert only(message, Kind.NAME).value == "Everett Middle School"
    assert not message.of(Kind.CLOCK, Kind.QUANTITY, live_only=False)  # a sentence without a time has none


def test_an_unknown_school_gets_the_closest_district_names() -> None:
    m = only(parse("Move Rooseveldt High to 9", names=SCHOOLS), Kind.NAME)
    assert (m.value, m.role, m.candidates[0]) == ("", "unknown", "Roosevelt Elementary")


# ---------------------------------------------------------------------------------------------------- answers


@pytest.mark.parametrize(
    ("text", "value", "role"),
    [
        ("A", "A", "choice"),
        ("option b", "B", "choice"),
        ("(c)", "C", "choice"),
        ("the second one", "B", "choice"),
        ("yep", "yes", "accept"),
        ("nope", "no", None),
        ("Good, thanks", "yes", "accept"),
        ("perfect", "yes", "accept"),
        ("that works", "yes", "accept"),
    ],
)
def test_answers(text: str, value: str, role: str | None) -> None:
    m = only(parse(text), Kind.ANSWER)
    assert (m.value, m.role) == (value, role)


def test_no_then_a_time_is_a_no_and_a_live_time() -> None:
    message = parse("No, 8:40 please.")
    assert only(message, Kind.ANSWER).value == "no"
    assert only(message, Kind.CLOCK).value == 520


def test_not_sure_is_an_unsure_answer() -> None:
    assert only(parse("not sure"), Kind.ANSWER).value == "unsure"


# ------------------------------------------------------------------------------------------------ the message


def test_words_and_clauses() -> None:
    message = parse("We sell 5 a day. Rent is 2000!")
    assert [c.text for c in message.clauses] == ["We sell 5 a day", "Rent is 2000"]
    assert message.words(1) == ("rent", "is", "2000")
    assert message.words()[:3] == ("we", "sell", "5")
    assert [m.clause for m in message.mentions] == [0, 1]


def test_the_parse_is_cached_per_text_and_names() -> None:
    text = "cache probe: six crates of 24"
    first = parse(text)
    hits = parse.cache_info().hits
    assert parse(text) is first and parse.cache_info().hits == hits + 1
    named = parse(text, names=SCHOOLS)
    assert named is not first and parse(text, names=SCHOOLS) is named


# ------------------------------------------------------------------------------------------ never raises, linear

_PIECES = st.sampled_from(
    ["a dozen and a half", "six crates of 24", "$4", "50 cents per bag per day", "8:40", "half past eight", "not",
     "wait no", ",", "?", "if", "my partner thinks", "maybe", "Roosevelt High", "option b", "yep", "2026-03-04",
     "rent", "costs me", "sell it for", "1,200", "9" * 40, "1e308", "’", "(", "and", "but really", "x", "k",
     "a quarter", "a dime", "free", "minus", "overnight", "9.30", "Monday", "Friday", "Everet", "keep off", "per"]
)  # fmt: skip
_TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(_PIECES, st.text(max_size=8)), max_size=60).map(" ".join),
)


@settings(derandomize=True, deadline=None, max_examples=150)
@given(_TEXT)
def test_parse_never_raises(text: str) -> None:
    message = parse(text, names=SCHOOLS)
    assert message.ops >= 0
    for m in message.mentions:
        assert 0 <= m.span[0] <= m.span[1] <= len(message.text)


def test_parse_never_raises_at_the_line_cap() -> None:
    for unit in ("9", "a", "1,", "six crates of ", "8:4", "not ", "?", "Roosevelt High ", "’"):
        parse((unit * MAX_LINE_CHARS)[:MAX_LINE_CHARS], names=SCHOOLS)


_RICH = st.lists(_PIECES, min_size=3, max_size=20).map(" ".join)
"""A text with values in it: a re-scan per mention, the quadratic case, shows only where there are mentions."""


def _work(text: str) -> tuple[int, int]:
    """The parse's own operation count and the characters its patterns scan (cache cleared first)."""
    parse.cache_clear()
    with counting_scans() as scans:
        ops = parse(text, names=SCHOOLS).ops
    return ops, scans.chars


@settings(derandomize=True, deadline=None, max_examples=25)
@given(st.one_of(_RICH, _TEXT.filter(lambda t: t.strip() != "")), st.sampled_from([2, 8, 32, 64]))
def test_work_grows_linearly(text: str, k: int) -> None:
    """Counted, not timed: for k copies of a text, the parse's operation count and the characters its patterns
    scan are at most 2 k times those of one copy."""
    ops_one, chars_one = _work(f"{text}\n")
    ops_many, chars_many = _work(f"{text}\n" * k)
    assert ops_many <= 2 * k * ops_one
    assert chars_many <= 2 * k * chars_one + 100 * k


def test_work_of_a_line_at_the_cap_is_linear() -> None:
    unit = "A tube costs me 4 dollars, wait no, 5, and I sell six crates of 24 at 8:40 if it were 10? "
    ops_one, chars_one = _work(unit)
    k = MAX_LINE_CHARS // len(unit)
    ops_many, chars_many = _work(unit * k)
    assert ops_many <= 1.2 * k * ops_one
    assert chars_many <= 1.2 * k * chars_one


def test_no_middle_school_before_8_30_is_a_bound_not_a_no() -> None:
    message = parse("no middle school should start before 8:30")
    assert not message.of(Kind.ANSWER, live_only=False)
    assert only(message, Kind.CLOCK).value == 8 * 60 + 30
    assert message.clauses[0].negated


@pytest.mark.parametrize(
    "text", ["right now I have 5", "Good morning, I sell 20 a day", "no more stock left"]
)
def test_a_sentence_that_starts_like_a_reply_is_no_answer(text: str) -> None:
    assert not parse(text).of(Kind.ANSWER, live_only=False)


@pytest.mark.parametrize(
    ("text", "amount"),
    [("twenty-five units a day", 25), ("1 1/2 days", 1.5), ("3/4 of a case", 0.75), ("8 dozen eggs", 96),
     ("2k a month", 2000), ("one hundred and twenty thousand three hundred and forty-five", 120_345)],
)  # fmt: skip
def test_number_forms(text: str, amount: float) -> None:
    assert parse(text).mentions[0].amount == amount


def test_open_24_7_is_no_fraction_and_by_10_no_clock_time() -> None:
    assert [m.value for m in parse("open 24/7").mentions] == [24, 7]
    assert only(parse("reduce stock by 10"), Kind.QUANTITY).value == 10


def test_the_price_of_a_pack_of_known_size_is_per_item_with_its_pack() -> None:
    pack, price = parse("a pack of 6 costs $3").mentions
    assert (pack.container, pack.multiplier) == ("pack", 6)
    assert (price.value, price.amount, price.per, price.container, price.role) == (3, 0.5, "unit", "pack", "purchase_price")


def test_instead_of_excludes_only_its_own_value() -> None:
    wanted, excluded = parse("I'd like Everett at 7:50 instead of 8:40", names=SCHOOLS).of(
        Kind.CLOCK, live_only=False
    )
    assert wanted.live and wanted.scope == Scope.NONE and excluded.scope & Scope.NEGATED
    assert only(parse("every school except Lick at 9", names=SCHOOLS), Kind.CLOCK).value == 9 * 60


def test_move_to_9_is_a_clock_time() -> None:
    assert only(parse("move Lick to 9", names=SCHOOLS), Kind.CLOCK).value == 9 * 60
    assert only(parse("increase to 9 units"), Kind.QUANTITY).unit == "item"


@pytest.mark.parametrize("text", ["lead time is 3-5 days", "between 3 and 5 days", "3 to 5 days"])
def test_both_ends_of_a_range_take_its_unit(text: str) -> None:
    low, high = parse(text).mentions
    assert (low.kind, low.unit, low.value, high.value) == (Kind.DURATION, "day", 3, 5)


def test_skip_is_an_answer_next_to_the_values_of_the_message() -> None:
    message = parse("holding? I pay 2000 a month rent ... skip")
    assert only(message, Kind.ANSWER).value == "skip"
    assert only(message, Kind.MONEY).role == "rent"


@pytest.mark.parametrize(
    ("text", "correction", "recall", "confused"),
    [("actually, 60", True, False, False), ("oops, 4", True, True, False), ("huh?", False, False, True),
     ("we sell 5", False, False, False)],
)  # fmt: skip
def test_message_flags(text: str, correction: bool, recall: bool, confused: bool) -> None:
    message = parse(text)
    assert (message.correction, message.recall, message.confused) == (correction, recall, confused)


@pytest.mark.parametrize(
    ("text", "role"),
    [("they last about a week in the fridge", "shelf_life"), ("delivery takes 3 days", "lead_time"),
     ("we order every 2 weeks", "interval"), ("plan for 30 days", None)],
)  # fmt: skip
def test_duration_roles(text: str, role: str | None) -> None:
    assert only(parse(text), Kind.DURATION).role == role


def test_counts_of_people_and_buses_have_their_unit() -> None:
    assert only(parse("keep the peak under 1500 students"), Kind.QUANTITY).unit == "student"
    assert only(parse("we run 3 buses"), Kind.QUANTITY).unit == "bus"
    assert only(parse("80 units"), Kind.QUANTITY).container is None


def test_a_misspelt_district_name_is_unknown_with_the_name_meant() -> None:
    m = only(parse("Can Everet start at 9?", names=SCHOOLS), Kind.NAME)
    assert (m.value, m.role, m.candidates) == ("", "unknown", ("Everett Middle School",))
    assert not parse("Lowering the peak is fine", names=SCHOOLS).mentions


def test_per_cent() -> None:
    assert only(parse("about 20 per cent"), Kind.QUANTITY).unit == "percent"


@pytest.mark.parametrize("text", ["we were selling 30 a day", "the parents want Everett at 8:40"])
def test_past_tense_and_a_wish_passed_on_are_live(text: str) -> None:
    assert parse(text, names=SCHOOLS).of(Kind.QUANTITY, Kind.CLOCK)


@pytest.mark.parametrize(
    ("text", "amount"),
    [("they cap it at 400 per order", 400), ("we max out at 150 cases", 150), ("it costs us two fifty", 2.5)],
)
def test_amounts_are_no_clock_times(text: str, amount: float) -> None:
    message = parse(text)
    assert not message.of(Kind.CLOCK) and message.mentions[0].value == amount


@pytest.mark.parametrize(
    ("text", "value", "per"),
    [("it costs us a dime per day to keep one box", 0.1, "day"), ("a quarter per bucket of flowers per day", 0.25,
     "unit/day"), ("costs roughly a quarter a week", 0.25, "week"), ("a dollar a week", 1, "week"),
     ("3 dimes", 0.3, None), ("shipping is free", 0, None)],
)  # fmt: skip
def test_coins_a_dollar_and_free(text: str, value: float, per: str | None) -> None:
    m = parse(text).of(Kind.MONEY)[0]
    assert (m.value, m.per) == (value, per)


def test_a_quarter_without_a_price_is_three_months() -> None:
    assert only(parse("plan for a quarter"), Kind.DURATION).days == 90


@pytest.mark.parametrize(
    ("text", "days"),
    [("plan for the coming year", 365), ("just the next month", 30), ("a couple of months", 60),
     ("half a year", 180), ("the whole week", 7)],
)  # fmt: skip
def test_periods_without_digits(text: str, days: float) -> None:
    assert only(parse(text), Kind.DURATION).days == days


def test_minus_is_a_sign_and_plus_or_minus_a_spread() -> None:
    assert parse("I'd put us at minus 3").mentions[0].value == -3
    assert [m.value for m in parse("30 a day, plus or minus 6").mentions] == [30, 6]


@pytest.mark.parametrize(
    "text",
    ["every shopper we can't serve costs us $3", "if we run out of croissants it costs us roughly 3 bucks",
     "whenever someone asks for a bike chain and we dont have one we lose about $12 in margin"],
)  # fmt: skip
def test_a_negated_or_conditional_verb_does_not_take_the_value_of_the_main_clause(text: str) -> None:
    assert only(parse(text), Kind.MONEY).live


@pytest.mark.parametrize(
    "text", ["I don't lose 5", "it isn't $2", "we don't sell 20 a day", "if it were 10 I'd be happy"]
)
def test_the_negated_or_hypothetical_value_itself_is_not_live(text: str) -> None:
    assert not parse(text).of(Kind.MONEY, Kind.QUANTITY)


def test_if_you_can_asks_politely() -> None:
    assert (
        only(
            parse("if you can work out the ordering for the next ten days thatd be perfect"), Kind.DURATION
        ).days
        == 10
    )


def test_two_weekdays_are_a_gap_in_days() -> None:
    gap = only(parse("order goes in monday, truck comes friday"), Kind.DURATION)
    assert (gap.value, gap.unit, gap.role) == (4, "day", "weekday_gap")
    assert not parse("open Monday to Friday").of(Kind.DURATION)


@pytest.mark.parametrize(
    "text", ["it delivers the day after we order", "ships overnight", "shows up the next morning"]
)
def test_one_day_phrases(text: str) -> None:
    assert only(parse(text), Kind.DURATION).days == 1


@pytest.mark.parametrize(
    ("text", "minutes", "negated"),
    [("Ortega is not to begin at 9.30.", 570, True), ("no 8.40 start for Lawton", 520, True),
     ("No 9:30 start for Balboa, please.", 570, True), ("keep Ortega off the early 7:50 start", 470, True),
     ("Keep Ortega away from the 8:40 start.", 520, True), ("The early bell, 7:50, is off the table for Muir.", 470,
     True), ("Set Everett to 8.40 and keep Lick off 9:30.", 520, False), ("No, 8:40 please.", 520, False)],
)  # fmt: skip
def test_times_kept_off(text: str, minutes: int, negated: bool) -> None:
    m = next(m for m in parse(text).of(Kind.CLOCK, live_only=False) if m.value == minutes)
    assert bool(m.scope & Scope.NEGATED) == negated


def test_a_price_per_case_is_per_case_and_per_bag_per_item() -> None:
    assert only(parse("$18 per case"), Kind.MONEY).per == "case"
    assert only(parse("$2 per bag"), Kind.MONEY).per_unit


@pytest.mark.parametrize("text", ["I'd take a 5", "A tube costs me 4 dollars", "we go with the flow"])
def test_an_article_is_no_choice(text: str) -> None:
    assert not [m for m in parse(text).mentions if m.role == "choice"]


def test_a_capital_letter_in_a_longer_reply_is_a_choice() -> None:
    assert only(parse("I prefer B because the cost is lower"), Kind.ANSWER).value == "B"


@pytest.mark.parametrize(
    ("text", "container", "size"),
    [("nails, boxes of 50", "box", 50.0), ("a crate is 20 jars", "crate", 20.0), ("packs of six", "pack", 6.0)],
)
def test_a_container_size_said_for_the_kind_is_a_size_not_a_count(text: str, container: str, size: float) -> None:
    from core.text.mentions import container_sizes

    (m,) = parse(text).of(Kind.QUANTITY)
    assert (m.role, m.container, m.multiplier) == ("size", container, size)
    assert container_sizes(parse(text)) == {container: size}


def test_sizes_from_earlier_messages_multiply_this_messages_containers() -> None:
    (m,) = parse("space for 15 boxes", sizes={"box": 12}).of(Kind.QUANTITY)
    assert m.amount == 180
    (half,) = parse("half a carton a day", sizes={"carton": 16}).of(Kind.QUANTITY)
    assert (half.amount, half.period) == (8, "day")
    assert parse("space for 15 boxes").of(Kind.QUANTITY)[0].amount == 15  # no size known: 15 boxes


def test_a_number_joined_to_pack_names_the_item() -> None:
    said = parse("we sell 10 four-packs a day")
    (m,) = said.of(Kind.QUANTITY)
    assert (m.value, m.container, m.period) == (10, "four-pack", "day")
    assert not parse("we count it in six-packs").of(Kind.QUANTITY)


def test_goes_for_is_a_sale_price() -> None:
    roles = [m.role for m in parse("it costs me 6 and goes for 10").of(Kind.MONEY)]
    assert roles == ["purchase_price", "sale_price"]


def test_word_spans_point_each_word_into_the_text() -> None:
    message = parse("We have 7 units on hand. Day two.")
    assert message.words() == ("we", "have", "7", "units", "on", "hand", "day", "two")
    assert [message.text[a:b].lower() for a, b in message.word_spans()] == list(message.words())
    assert [message.text[a:b] for a, b in message.word_spans(1)] == ["Day", "two"]
    assert message.word_spans(5) == ()


def test_a_number_hyphened_to_a_time_word_is_a_duration() -> None:
    (plan,) = parse("what is the cost for the 90-day plan?").mentions
    assert (plan.kind, plan.value, plan.unit) == (Kind.DURATION, 90, "day")
    (wait,) = parse("a 3-week lead time").mentions
    assert (wait.kind, wait.days, wait.role) == (Kind.DURATION, 21, "lead_time")
    assert [m.kind for m in parse("3-5 days").mentions] == [Kind.DURATION, Kind.DURATION]


def test_the_parse_keeps_every_token_with_its_span_symbols_included() -> None:
    message = parse("sd=3, 20 ± 5 or N(12, 3) +/- 2")
    assert [t.low for t in message.toks] == [
        "sd", "=", "3", ",", "20", "±", "5", "or", "n", "(", "12", ",", "3", ")", "+", "/", "-", "2",
    ]  # fmt: skip
    plus_minus = message.toks[5]
    assert (plus_minus.kind, message.text[plus_minus.start : plus_minus.end]) == ("sym", "±")
    assert message.words() == ("sd", "3", "20", "5", "or", "n", "12", "3", "2")


def test_formula_symbols_are_tokens_for_readers_but_not_for_the_rules() -> None:
    message = parse("2,500+ students at once, we sell 20+ a day")
    assert "+" in [t.low for t in message.toks]
    students, sold = message.of(Kind.QUANTITY)
    assert (students.amount, students.unit) == (2500, "student")
    assert (sold.amount, sold.per) == (20, "day")


# ------------------------------------------------------------------------------ clock relations (bound / refusal)


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        ("Everett at 8:40 please", ["at"]),
        ("Lick at 8:40 instead of 7:50", ["at", "not_at"]),
        ("keep Everett off the 7:50 slot", ["not_at"]),
        ("for Lick 7:50 is too early", ["not_at"]),
        ("the early 7:50 bell won't work for us", ["not_at"]),
        ("move Everett from 7:50 to 9:30", ["from", "to"]),
        ("8:40 or 9:30 is fine for Lick", ["at", "or"]),
        ("Lick can't start at 7:50 or 8:40", ["not_at", "not_at"]),
        ("Everett after 8:40", ["after"]),
        ("Everett no later than 8:40", ["not_after"]),
        ("Lick before 9:30", ["before"]),
        ("Lick not before 8:40", ["not_before"]),
        ("the earliest Everett can start is 8:40", ["not_before"]),
        ("the latest Lick should start is 8:40", ["not_after"]),
        ("Everett at 9:30 or later", ["not_before"]),
        ("Lick by 8:40", ["not_after"]),
        ("No 7:50 start for Lick", ["not_at"]),
    ],
)
def test_each_clock_time_has_its_relation(text: str, roles: list[str]) -> None:
    clocks = parse(text, names=SCHOOLS).of(Kind.CLOCK, live_only=False)
    assert [m.role for m in clocks] == roles


def test_a_relation_does_not_reach_across_a_sentence() -> None:
    clocks = parse("Lick can't do 7:50. Everett at 8:40.").of(Kind.CLOCK, live_only=False)
    assert [m.role for m in clocks] == ["not_at", "at"]


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [("the 20-pound bags", 20, "lb"), ("we stock 5-pound tubs", 5, "lb"), ("the 15-kilo sacks", 15, "kg")],
)
def test_a_hyphened_weight_before_a_container_is_a_size(text: str, value: float, unit: str) -> None:
    """'the 20-pound bags' is what one bag weighs (role 'size'), like '20 pound bags', never money or a count."""
    m = parse(text).mentions[0]
    assert (m.kind, m.value, m.unit, m.role) == (Kind.QUANTITY, value, unit, "size")
