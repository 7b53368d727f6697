"""The REST proxy of compose.yaml (proxy/server.mjs: discord.js's @discordjs/proxy on node) run on
loopback in front of a fake Discord, for the tests and benches that send bot processes through it.

    proxy = RestProxy(fake.api_base).start()   # node proxy/server.mjs, on a free port
    env["DISCORD_REST_PROXY"] = proxy.url      # each bot process sends every request through it
    proxy.stop()

It needs node and the packages of proxy/package-lock.json (`npm ci` in proxy/); `missing()` says
which is absent, in a sentence.
"""
from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROXY_DIR = os.path.join(ROOT, "proxy")


def missing() -> str | None:
    """Why the proxy can't run here, or None."""
    if shutil.which("node") is None:
        return "The REST proxy needs node (Debian's nodejs package) on the PATH."
    if not os.path.isdir(os.path.join(PROXY_DIR, "node_modules", "@discordjs", "proxy")):
        return f"The REST proxy's packages are not installed: run `npm ci` in {PROXY_DIR}."
    return None


class RestProxy:
    def __init__(self, api_base: str, global_limit: int = 50, window_ms: int = 1000, log_path: str | None = None):
        # The proxy takes Discord's API root (it adds /v10 itself): the fake's base without its version.
        self.api = api_base.rstrip("/").removesuffix("/v10")
        self.global_limit, self.window_ms = global_limit, window_ms
        self.log_path = log_path
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> RestProxy:
        reason = missing()
        if reason:
            raise RuntimeError(reason)
        env = {**os.environ, "PORT": "0", "HOST": "127.0.0.1", "DISCORD_API": self.api,
               "GLOBAL_LIMIT": str(self.global_limit), "GLOBAL_WINDOW_MS": str(self.window_ms)}
        err = open(self.log_path, "w", encoding="utf-8") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(["node", "server.mjs"], cwd=PROXY_DIR, env=env, stdout=subprocess.PIPE,
                                     stderr=err, text=True)
        if self.log_path:
            err.close()  # type: ignore[union-attr]  # the child holds it
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(lines,), daemon=True).start()
        try:
            first = lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise RuntimeError(f"the REST proxy did not start within {timeout:.0f} s") from None
        if "listening on" not in first:
            self.stop()
            raise RuntimeError(f"the REST proxy did not start: {first.strip() or 'it exited'}")
        self.port = int(first.split(",")[0].rsplit(":", 1)[1])
        return self

    def _read(self, lines: queue.Queue[str]) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            lines.put(line)
        lines.put("")  # it exited

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
