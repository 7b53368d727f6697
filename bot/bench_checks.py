"""Issue #28's bar for a run under Discord's limits, as pass/fail lines (bench --live and --scale).

At the highest rate each bench step offers (every step the ladder ran, the burst, and the warm-up
for the 429s): no global 429, no route with more than 1 % of its requests answered 429, no move
lost, every move's message delivered once and in order in its channel, and "✓ Done" p99 within
1 s at 150 moves/s for the token (the step offering 150/s; a ladder that stopped below it fails).
Also the budget itself: the most global-limited requests the token got served in any one second,
against Discord's 50 (summed over every process sharing the token).
"""
from __future__ import annotations

from collections import deque

TARGET_RATE = 150.0  # moves/s: the rate one token must carry with "✓ Done" p99 ≤ 1 s
DONE_P99 = 1.0
ROUTE_SHARE = 0.01  # of a route's requests answered 429


def budget(fake) -> dict:
    """How the bot spent its global budget over the fake's log: the most global-limited requests
    one bot token had served within any second (every process sending that token, as the fake
    counts them: limits.bot_of), and how many each process's token had served."""
    peak = 0
    windows: dict[str, deque[float]] = {}
    served: dict[str, int] = {}
    for r in fake.request_log:
        if not r.global_limited or r.status == 429:
            continue
        served[r.token] = served.get(r.token, 0) + 1
        window = windows.setdefault(fake.limits.bot_of(r.token), deque())
        window.append(r.t)
        while window[0] <= r.t - 1.0:
            window.popleft()
        peak = max(peak, len(window))
    return {"global_peak_per_second": peak, "served_by_token": dict(sorted(served.items()))}


def _line(name: str, ok: bool | None, measured: str) -> dict:
    return {"check": name, "result": "n/a" if ok is None else ("pass" if ok else "fail"), "measured": measured}


def checks(run: dict, limit: int = 50) -> list[dict]:
    """The pass/fail lines of one `_one` run (bench_live): its steps, burst and whole-run totals."""
    steps = run.get("steps", []) + ([run["burst"]] if "burst" in run else []) + ([run["soak"]] if "soak" in run else [])
    routes = run.get("limits_by_route", {})
    global_429s = sum(c["global_429s"] for c in routes.values())
    shares = {name: c["route_429s"] / c["requests"] for name, c in routes.items() if c["requests"]}
    worst = max(shares, key=lambda n: shares[n], default="")
    unanswered = sum(s["moves"] - s["done"] - s["busy"] for s in steps)
    delivery = run.get("delivery", {})
    missing, repeated = delivery.get("moves_missing_or_out_of_order", 0), delivery.get("repeated_lines", 0)
    at_target = next((s for s in run.get("steps", []) if (s["offered_per_second"] or 0) >= TARGET_RATE), None)
    ladder = run.get("steps", [])
    top = max((s["offered_per_second"] or 0 for s in ladder), default=0)
    # below the target with every step within the bar: the ladder offered no more (--quick), not measured
    stopped = bool(ladder) and (ladder[-1]["done_p99_s"] is None or ladder[-1]["done_p99_s"] > DONE_P99)
    peak = run.get("global_peak_per_second")
    ended = "stopped" if stopped else "ended"
    return [
        _line("0 global 429s", global_429s == 0, f"{global_429s} (whole run, warm-up included)"),
        _line("≤ 1 % of requests 429 on any route", not worst or shares[worst] <= ROUTE_SHARE,
              f"{100 * shares[worst]:.2f} % on {worst} (whole run)" if worst else "no requests"),
        _line("0 moves lost (every move answered ✓ Done or Busy)", unanswered == 0,
              f"{unanswered} unanswered of {sum(s['moves'] for s in steps)}"),
        _line("every move's message delivered once and in order per channel", missing == 0 and repeated == 0,
              f"{missing} missing or out of order, {repeated} repeated, of {delivery.get('moves_checked', 0)}"),
        _line(f"✓ Done p99 ≤ {DONE_P99:g} s at {TARGET_RATE:g} moves/s",
              None if at_target is None and not stopped else
              at_target is not None and (at_target["done_p99_s"] or float("inf")) <= DONE_P99,
              f"p99 {at_target['done_p99_s']} s, {at_target['achieved_per_second']} moves/s done"
              if at_target else f"no step at {TARGET_RATE:g}/s (the ladder {ended} at {top:g}/s)"),
        _line(f"the token's global-limited requests within any second ≤ {limit}",
              None if peak is None else peak <= limit, f"{peak} at most"),
    ]


def markdown_checks(label: str, lines: list[dict]) -> str:
    out = [f"| {label}: issue #28's check | result | measured |", "| --- | --- | --- |"]
    out += [f"| {c['check']} | **{c['result']}** | {c['measured']} |" for c in lines]
    return "\n".join(out) + "\n"


def text_checks(label: str, lines: list[dict]) -> str:
    return "\n".join(f"{c['result'].upper():4}  {label}: {c['check']} ({c['measured']})" for c in lines)
