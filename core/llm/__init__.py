"""The LLM layer: one chat interface, provider adapters, an offline hook, typed tools and the tool loop."""

from core.llm.factory import check_connection, make_chat_model
from core.llm.offline import OfflineModel, OfflinePolicy, OfflineTurn, last_user_text, trailing_tool_results
from core.llm.runner import (
    HistoryPolicy,
    LoopResult,
    LoopStop,
    Step,
    TokenBudget,
    run_tools,
    tool_result_message,
)
from core.llm.textcalls import TextCallFormat, TextCallParse, parse_text_tool_calls, text_tool_instructions
from core.llm.tools import ToolArgumentError, Toolbox, tool_spec, validate_arguments
from core.llm.types import ChatModel, Message, Reply, ToolCall, ToolSpec, Usage

__all__ = [
    "AnthropicChatModel",
    "ChatModel",
    "HistoryPolicy",
    "LoopResult",
    "LoopStop",
    "Message",
    "OfflineModel",
    "OfflinePolicy",
    "OfflineTurn",
    "OpenAIChatModel",
    "Reply",
    "Step",
    "TextCallFormat",
    "TokenBudget",
    "TextCallParse",
    "ToolArgumentError",
    "ToolCall",
    "ToolSpec",
    "Toolbox",
    "Usage",
    "last_user_text",
    "make_chat_model",
    "parse_text_tool_calls",
    "run_tools",
    "check_connection",
    "text_tool_instructions",
    "tool_result_message",
    "tool_spec",
    "trailing_tool_results",
    "validate_arguments",
]


def __getattr__(name: str) -> object:
    """Load the provider adapters (and their SDKs, ~1.5 s) only when someone asks for them."""
    if name in ("AnthropicChatModel", "OpenAIChatModel"):
        from core.llm import providers

        return getattr(providers, name)
    raise AttributeError(f"module 'core.llm' has no attribute {name!r}")
