"""Recording a tool loop's steps and messages in the store through the one recorder."""

from core.llm import Message, OfflineModel, OfflineTurn, Toolbox, run_tools, trailing_tool_results
from core.recorder import Recorder
from core.store import Store


def square(x: int) -> dict:
    """Square a number."""
    return {"square": x * x}


def policy(system, messages, tools):
    if trailing_tool_results(messages):
        return OfflineTurn("the square is 16")
    return OfflineTurn("", [("square", {"x": 4})])


def test_loop_steps_and_messages_land_in_the_run(store_path):
    store = Store(store_path)
    recorder = Recorder(store, "test", config={"k": 1}, seed=1)
    question = Message("user", "4 squared?")
    result = run_tools(OfflineModel(policy), "s", [question], Toolbox([square]), on_step=recorder.step)
    recorder.messages([question, *result.messages])
    run_id = recorder.run_id
    steps = store.steps(run_id)
    assert steps["kind"].tolist() == ["llm", "tool", "llm"]
    assert steps["payload"][1]["result"] == {"square": 16}
    messages = store.messages(run_id)
    assert messages["role"].tolist() == ["user", "assistant", "tool", "assistant"]
    assert messages["tool_calls"][1][0]["name"] == "square"
    assert messages["content"].iloc[-1] == "the square is 16"
