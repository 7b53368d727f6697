"""A debugging aid for memory in `bench --live` (testkit/fakediscord/botproc.py turns it on).

With POLITICS_MEMDUMP=FILE, each SIGUSR1 to the bot process or one of its render workers appends
one JSON line to FILE. The bot's: the sizes of its containers, malloc's view of the heap and the
object types that grew; with POLITICS_TRACEMALLOC=N, also the allocation sites (N frames) that grew
since its first line. A worker's: its anonymous RSS, malloc's view, Pillow's blocks and the fill
of every renderer's cache (entries, hit rate, bytes of images held)."""
from __future__ import annotations

import asyncio
import ctypes
import functools
import gc
import json
import os
import signal
import sys
import time
import tracemalloc
from collections import Counter


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def mallinfo_kb() -> dict:
    """glibc's main heap: `arena` taken from the system by brk, `hblkhd` in mmapped blocks,
    `uordblks` in use, `fordblks` free but kept (fragmentation when it grows while uordblks does not)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        info = libc.mallinfo2()
    except (OSError, AttributeError):
        return {}
    return {name: getattr(info, name) // 1024 for name in ("arena", "hblkhd", "uordblks", "fordblks")}


def _status_kb(key: str) -> int:
    with open("/proc/self/status", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def _append(path: str, entry: dict) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry) + "\n")


class BotWatch:
    def __init__(self, path: str, client) -> None:
        self.path, self.client = path, client
        self.frames = int(os.environ.get("POLITICS_TRACEMALLOC", "0") or 0)
        if self.frames:
            tracemalloc.start(self.frames)
        self.first: tracemalloc.Snapshot | None = None
        self.types: Counter | None = None

    def install(self) -> None:
        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, self.dump)

    def _sizes(self) -> dict:
        client = self.client
        out = {}
        for label, obj in (("service", client.service), ("client", client), ("delivery", client.delivery),
                           ("state", client._connection), ("http", client.http)):
            for name, value in vars(obj).items():
                if hasattr(value, "__len__") and not isinstance(value, (str, bytes)):
                    try:
                        out[f"{label}.{name}"] = len(value)
                    except TypeError:
                        pass
        out["tasks"] = len(asyncio.all_tasks())
        return out

    def dump(self) -> None:
        started = time.monotonic()
        types = Counter(type(o).__name__ for o in gc.get_objects())
        grown = {} if self.types is None else {
            k: v - self.types.get(k, 0) for k, v in (types - self.types).most_common(15)}
        self.types = self.types or types
        entry = {"process": "bot", "at": time.time(), "anon_kb": _status_kb("RssAnon"),
                 "blocks": sys.getallocatedblocks(), "objects": sum(types.values()), "malloc_kb": mallinfo_kb(),
                 "sizes": self._sizes(), "types_grown": grown}
        if self.frames:
            snap = tracemalloc.take_snapshot().filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),))
            entry["traced_kb"] = tracemalloc.get_traced_memory()[0] // 1024
            if self.first is None:
                self.first = snap
            else:
                entry["sites_grown"] = [
                    {"kb": round(d.size_diff / 1024, 1), "count": d.count_diff, "where": d.traceback.format()}
                    for d in snap.compare_to(self.first, "traceback")[:12]]
        entry["dump_s"] = round(time.monotonic() - started, 2)
        _append(self.path, entry)


def _renderer_caches() -> dict:
    """Every lru_cache of the render package: entries, hit rate, MB of images its values hold."""
    from PIL import Image
    held: dict[int, int] = {}
    for obj in gc.get_objects():
        if isinstance(obj, Image.Image):
            held[id(obj)] = obj.size[0] * obj.size[1] * len(obj.getbands())
    out: dict[str, object] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("render"):
            continue
        for attr, fn in vars(module).items():
            if isinstance(fn, functools._lru_cache_wrapper) and fn.__module__ == name:
                info = fn.cache_info()
                if info.currsize:
                    out[f"{name}.{attr}"] = {"entries": info.currsize,
                                             "hit_rate": round(info.hits / max(1, info.hits + info.misses), 3)}
    out["_images_mb"] = round(sum(held.values()) / 2**20, 1)
    return out


def _worker_dump(path: str) -> None:
    from PIL import Image
    _append(path, {"process": "worker", "pid": os.getpid(), "at": time.time(), "anon_kb": _status_kb("RssAnon"),
                   "file_kb": _status_kb("RssFile"), "malloc_kb": mallinfo_kb(), "pillow": Image.core.get_stats(),
                   "caches": _renderer_caches()})


def warm_and_watch(owner: int) -> None:
    """The render workers' initializer with the watch added (botproc installs it)."""
    from bot import render_pool
    render_pool._warm(owner)
    path = os.environ.get("POLITICS_MEMDUMP")
    if path:
        signal.signal(signal.SIGUSR1, lambda _sig, _frame: _worker_dump(path))
