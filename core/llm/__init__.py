"""The LLM layer: one chat interface, provider adapters, an offline hook, typed tools and the tool loop.

The factory and the adapters load on first use (see `__getattr__`): the adapters pull in the SDKs, and the
factory reads `core.config`, which itself reads the provider table in `core.llm.registry`.
"""

import importlib

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


_LAZY = {
    "AnthropicChatModel": "core.llm.providers",
    "OpenAIChatModel": "core.llm.providers",
    "check_connection": "core.llm.factory",
    "make_chat_model": "core.llm.factory",
}


def __getattr__(name: str) -> object:
    """Load the factory and the provider adapters (their SDKs take ~1.5 s) only when someone asks for them."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'core.llm' has no attribute {name!r}")
