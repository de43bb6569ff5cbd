"""The listener's thread hands the hub its work through the server's loop; once that loop has
closed (the server stopping) there is nothing to hand it to, and no thread's traceback to print."""

from __future__ import annotations

import asyncio
from pathlib import Path

from gammon.store import Store
from gammon.web.hub import Hub


def _hub(tmp_path: Path) -> Hub:
    return Hub(Store(f"sqlite:///{tmp_path / 'games.db'}"), None)


def test_a_reconnection_after_the_loop_closed_is_let_be(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    hub.loop = asyncio.new_event_loop()
    hub.loop.close()
    hub._listening_again()  # raised "Event loop is closed" in the listener's thread


def test_a_reconnection_looks_again_on_the_loop(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    looked: list[bool] = []

    async def look_again() -> None:
        looked.append(True)

    hub.look_again = look_again  # type: ignore[method-assign]

    async def main() -> None:
        hub.loop = asyncio.get_running_loop()
        hub._listening_again()
        for _ in range(3):
            await asyncio.sleep(0)

    asyncio.run(main())
    assert looked == [True]
