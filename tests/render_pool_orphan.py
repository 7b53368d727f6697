"""Used by tests/test_render_pool.py: start a render pool, print its workers' pids, and die
without shutting it down (as a bot killed with SIGKILL would)."""
import asyncio
import os

from bot.render_pool import RenderPool


async def main() -> None:
    pool = RenderPool(2)
    pool.start()
    while len(pool._pool()._processes) < 2:
        await asyncio.sleep(0.05)
    print(" ".join(str(pid) for pid in pool._pool()._processes), flush=True)
    os._exit(0)


if __name__ == "__main__":
    asyncio.run(main())
