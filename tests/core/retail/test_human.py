"""Human play of RetailBench (`core.retail.human`): checked actions, the recorded run, resume and replay."""

import pytest

from core.errors import SpecError
from core.recorder import Lease
from core.retail import replay
from core.retail.human import HUMAN_KIND, HumanGame, open_games, parse_order_items
from core.retail.replay import retail_runs
from core.rollout import replay_run
from core.store import Store
from solvers.retail.env import RetailBenchEnv


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "runs.duckdb")


def test_a_two_day_game_is_stored_resumed_and_replayable(store):
    game = HumanGame.new(store, preset="hard_v2", days=2, seed=3)
    sku = game.env.sim.sku_ids[0]
    order = game.play("place_order", {"items": [{"sku_id": sku, "quantity": 30}], "supplier_id": "supplier_1"})
    assert "order_id" in order.observation["result"]
    game.play("set_shelf_skus", {"sku_ids": [sku]})
    game.play("modify_sku_price", {"sku_id": sku, "new_price": 4.25})
    game.play("end_today")
    assert game.day == 1 and not game.done
    assert open_games(store) == [game.run_id]
    again = HumanGame.resume(store, game.run_id)  # a page reload: rebuilt from the store
    assert again.day == 1 and again.episode.steps == 4
    assert float(again.env.sim.price[again.env.sim.index[sku]]) == pytest.approx(4.25)
    again.play("end_today")
    assert again.done and open_games(store) == []
    runs = retail_runs(store)
    row = runs[runs["id"] == game.run_id].iloc[0]
    assert (row["agent"], row["kind"], row["status"], row["days"]) == ("human", HUMAN_KIND, "done", 2)
    assert replay_run(store, game.run_id, RetailBenchEnv("hard_v2", max_days=2)).matches
    table1 = replay.table1(store, [game.run_id])  # the replay's Table 1 labels it too
    assert table1.loc[0, "kind"] == HUMAN_KIND and table1.loc[0, "run_days"] == 2


def test_actions_are_checked_against_the_tool_schema_before_they_are_played(store):
    game = HumanGame.new(store, days=1)
    sku = game.env.sim.sku_ids[0]
    with pytest.raises(SpecError, match="items"):
        game.play("place_order", {"items": "20 of everything", "supplier_id": "supplier_1"})
    with pytest.raises(SpecError, match="new_price"):
        game.play("modify_sku_price", {"sku_id": sku})
    with pytest.raises(SpecError, match="unknown tool"):
        game.play("sell_everything", {})
    assert game.episode.steps == 0  # refused before the environment saw them
    bad = game.play("place_order", {"items": [{"sku_id": "nope", "quantity": 1}], "supplier_id": "supplier_1"})
    assert "Unknown SKU: nope" in bad.observation["result"]["error"]  # the tools' own rule, recorded as any agent's


def test_order_lines_are_read_as_sku_colon_quantity():
    assert parse_order_items("1001:20, 1002:5\n1003:1") == [
        {"sku_id": "1001", "quantity": 20}, {"sku_id": "1002", "quantity": 5}, {"sku_id": "1003", "quantity": 1}]
    with pytest.raises(SpecError, match="SKU:QUANTITY"):
        parse_order_items("1001 x 20")
    with pytest.raises(SpecError, match="at least one"):
        parse_order_items(" , ")


def test_retail_play_answers_one_json_line_per_action_and_ends_with_the_game(store):
    import io
    import json

    from core.retail.cli import play_lines

    game = HumanGame.new(store, days=1)
    sku = game.env.sim.sku_ids[0]
    lines = [json.dumps({"name": "modify_sku_price", "arguments": {"sku_id": sku, "new_price": -1}}),
             "{not json", json.dumps({"name": "end_today"}), json.dumps({"name": "view_inventory"})]
    out = io.StringIO()
    assert play_lines(game, io.StringIO("\n".join(lines) + "\n"), out) == 3  # the game ended after end_today
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert "new_price must be positive" in answers[0]["result"]["error"]
    assert answers[1]["field"] == "input" and answers[2]["day"] == 1
    assert {a["run_id"] for a in answers} == {game.run_id} and game.done


def test_a_game_open_in_another_live_tab_is_read_only(store):
    game = HumanGame.new(store, days=2, lease_owner="tab-a")
    game.play("view_funds_and_date")
    second = HumanGame.resume(store, game.run_id, lease=Lease("tab-b", lambda holder: True))
    with pytest.raises(SpecError, match="another tab"):
        second.play("end_today")
    assert second.episode.steps == 1  # refused before the environment moved
    taken = HumanGame.resume(store, game.run_id, lease=Lease("tab-c", lambda holder: False))
    taken.play("end_today")  # the old tab is gone (a reload): its lease is taken over
    assert taken.day == 1 and len(store.transitions(game.run_id)) == 2
