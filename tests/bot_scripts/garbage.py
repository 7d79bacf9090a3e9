"""A broken bot: a correct minimal bot that chats on stdout before each answer."""
from minimal import first_legal, say, serve


def chatty(view: str) -> str:
    say("Thinking really hard about this one...")
    return first_legal(view)


serve("garbage", chatty)
