"""bench --live / --scale's pass/fail lines for issue #28's bar (bot/bench_checks.py), on made-up runs."""
from __future__ import annotations

from types import SimpleNamespace

from bot.bench_checks import budget, checks, text_checks


def _step(rate, p99=0.5, moves=100, done=100, busy=0):
    return {"offered_per_second": rate, "done_p99_s": p99, "moves": moves, "done": done, "busy": busy,
            "achieved_per_second": done / 10}


def _run(steps, routes=None, delivery=None, peak=40):
    return {"steps": steps, "burst": _step(None, 2.0), "global_peak_per_second": peak,
            "limits_by_route": routes or {"message create": {"requests": 1000, "route_429s": 5, "global_429s": 0}},
            "delivery": delivery or {"moves_checked": 300, "moves_missing_or_out_of_order": 0, "repeated_lines": 0}}


def _results(run):
    return [c["result"] for c in checks(run)]


def test_a_run_within_the_bar_passes_every_line():
    assert _results(_run([_step(60), _step(150)])) == ["pass"] * 6


def test_each_breach_fails_its_own_line():
    routes = {"message create": {"requests": 100, "route_429s": 2, "global_429s": 1}}
    run = _run([_step(60, moves=100, done=90, busy=5), _step(150, p99=1.2)], routes=routes,
               delivery={"moves_checked": 9, "moves_missing_or_out_of_order": 1, "repeated_lines": 0}, peak=51)
    assert _results(run) == ["fail"] * 6
    lines = text_checks("primary-general", checks(run)).splitlines()
    assert lines[0].startswith("FAIL  primary-general: 0 global 429s (1 ")
    assert "2.00 % on message create" in lines[1] and "5 unanswered of" in lines[2]


def test_150_per_second_not_offered_is_not_a_pass():
    # a ladder that ended below 150/s with every step within the bar did not measure it ...
    assert checks(_run([_step(60), _step(120)]))[4]["result"] == "n/a"
    # ... one that stopped below it because a step broke the bar fails
    stopped = checks(_run([_step(60), _step(120, p99=3.0)]))[4]
    assert stopped["result"] == "fail" and "stopped at 120/s" in stopped["measured"]


def test_the_budget_sums_every_process_of_one_token_within_a_sliding_second():
    def req(t, token, limited=True, status=200):
        return SimpleNamespace(t=t, token=token, global_limited=limited, status=status)
    log = [req(0.0, "a"), req(0.5, "b"), req(0.9, "a"), req(0.95, "b", limited=False),  # an exempt callback
           req(0.99, "b", status=429), req(1.2, "a"), req(1.4, "b"), req(3.0, "c")]
    fake = SimpleNamespace(request_log=log, limits=SimpleNamespace(bot_of=lambda t: "bot" if t in "ab" else t))
    spent = budget(fake)
    # (0.5, 0.9, 1.2, 1.4) are within one second, both processes' requests counted together
    assert spent["global_peak_per_second"] == 4
    assert spent["served_by_token"] == {"a": 3, "b": 2, "c": 1}
