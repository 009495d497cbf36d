"""The hook call as the handlers see it: a declaration for the type checker only.

:class:`.call.HookCall` is the one implementation. The handlers, the settling of turns,
the router cache and the notices take a call, and :mod:`.call` imports them late to run
them; naming ``HookCall`` itself from them would make a circle of imports. Nothing imports
this module at run time (every reader names it under ``if TYPE_CHECKING:``), so its use of
:mod:`typing` costs the hooks nothing.
"""

from __future__ import annotations

from typing import Callable, Protocol, TypeVar  # noqa: TID253 - never imported at run time (see above)

from artibot.store.home import Home

T = TypeVar("T")

Payload = dict[str, object]
"""A hook's payload (a JSON object; every field read is narrowed where it is read)."""

Output = dict[str, object]
"""What a handler hands back for the client (hook JSON), or a client's own output."""


class Call(Protocol):
    """One hook invocation: the event, the data home, the payload and the time it started."""

    event: str
    root: str
    payload: Payload
    now: int
    secret: str | None
    agent: str
    errors: list[str]

    @property
    def session_id(self) -> str | None: ...

    def field(self, name: str) -> str | None: ...

    def home(self) -> Home: ...

    def log(self, what: str) -> None: ...

    def log_error(self, exc: BaseException, doing: str = "") -> None: ...

    def attempt(self, doing: str, fn: Callable[[], T]) -> T | None: ...


Handler = Callable[[Call], Output | None]
"""What runs one event (:data:`.handlers.HANDLERS`): the hook output for the client, or None."""
