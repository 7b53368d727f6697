"""TEMPORARY stand-in for questions.py / answers.py / cards.py (the content
helper writes the real ones); same names, tiny content. Deleted when they land."""
from __future__ import annotations

import csv
import json
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from .usmap import STATE_NAMES


class Question(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str
    category: Literal["state", "general", "government"]
    text: str
    answer: str
    wrong: tuple[str, ...]
    state: str | None = None
    free_text: bool = True
    accept: tuple[str, ...] = ()


class UploadError(ValueError):
    pass


@lru_cache(maxsize=1)
def bank() -> tuple[Question, ...]:
    out: list[Question] = []
    codes = sorted(STATE_NAMES)
    for i, code in enumerate(codes):
        name = STATE_NAMES[code]
        for k in range(8):
            other = [STATE_NAMES[codes[(i + j * 7 + k) % len(codes)]] for j in (1, 2, 3)]
            out.append(Question(id=f"state-stub-{code}-{k}", category="state", state=code,
                                text=f"(stub {k}) Which state has the postal code {code}?",
                                answer=name, wrong=tuple(o for o in other if o != name)[:3] or ("Nowhere",)))
    for k in range(40):
        out.append(Question(id=f"gen-stub-{k}", category="general", text=f"(stub) What is {k} plus {k}?",
                            answer=str(2 * k), wrong=(str(2 * k + 1), str(2 * k + 2), str(2 * k + 3))))
    for k in range(40):
        out.append(Question(id=f"gov-stub-{k}", category="government", text=f"(stub) What is {k} times 3?",
                            answer=str(3 * k), wrong=(str(3 * k + 1), str(3 * k + 2), str(3 * k + 4))))
    return tuple(out)


def by_category(cat: str) -> tuple[Question, ...]:
    return tuple(q for q in bank() if q.category == cat)


@lru_cache(maxsize=64)
def about_state(code: str) -> tuple[Question, ...]:
    return tuple(q for q in bank() if q.category == "state" and q.state == code)


def from_custom(rows: list[dict]) -> list[Question]:
    return [Question(id=r["id"], category=r["category"], text=r["text"], answer=r["answer"],
                     wrong=tuple(r.get("wrong") or ()), state=r.get("state") or None,
                     free_text=r.get("free_text", True), accept=tuple(r.get("accept") or ())) for r in rows]


def parse_upload(filename: str, data: bytes) -> list[dict]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadError("The file is not UTF-8 text.") from None
    if filename.lower().endswith(".json"):
        try:
            rows = json.loads(text)
        except ValueError:
            raise UploadError("The file is not valid JSON.") from None
    else:
        rows = list(csv.DictReader(text.splitlines()))
    out = []
    for i, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise UploadError(f"Row {i}: each row must be an object.")
        cat = str(row.get("category", "")).strip().lower()
        if cat not in ("state", "general", "government"):
            raise UploadError(f"Row {i}: the category must be state, general or government.")
        q, a = str(row.get("question", "")).strip(), str(row.get("answer", "")).strip()
        if not q or not a:
            raise UploadError(f"Row {i}: a question and an answer are needed.")
        wrong = row.get("wrong") or [row.get(k) for k in ("wrong1", "wrong2", "wrong3")]
        if isinstance(wrong, str):
            wrong = wrong.split("|")
        wrong = [str(w).strip() for w in wrong if w and str(w).strip()]
        if not wrong:
            raise UploadError(f"Row {i}: at least one wrong choice is needed.")
        st = str(row.get("state", "") or "").strip().upper() or None
        if cat == "state" and st not in STATE_NAMES:
            raise UploadError(f"Row {i}: a State question needs a state (a postal code such as TX).")
        out.append({"category": cat, "text": q, "answer": a, "wrong": wrong[:3], "state": st})
    if not out:
        raise UploadError("The file has no questions.")
    return out


def normalise(text: str) -> str:
    return " ".join("".join(c for c in text.lower() if c.isalnum() or c.isspace()).split())


def matches(given: str, q: Question) -> bool:
    g = normalise(given)
    return bool(g) and any(g == normalise(x) for x in (q.answer, *q.accept))


class Gerrymander(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: int
    title: str
    need_chips: tuple[str, ...] = ()
    need_cash: int = 0
    need_pv: int = 0
    reward_chips: tuple[str, ...] = ()
    reward_cash: int = 0
    reward_pv: int = 0
    text: str


_G = [(("AL", "AR", "MS"), 5, 0, ("FL",), 0, 20), (("VT", "NH"), 0, 0, ("ME",), 5, 0), ((), 10, 0, ("NV",), 0, 0),
      ((), 0, 20, ("AZ",), 0, 0), (("RI",), 2, 0, ("CT",), 0, 5), (("ND", "SD"), 0, 0, ("MN",), 0, 0),
      (("WY",), 0, 10, ("CO",), 0, 0), ((), 15, 0, ("GA",), 0, 0), (("DE",), 0, 0, ("NJ",), 0, 0),
      ((), 0, 30, ("PA",), 0, 0)]
GERRYMANDERS: tuple[Gerrymander, ...] = tuple(
    Gerrymander(id=i + 1, title=f"Stub {i + 1}", need_chips=g[0], need_cash=g[1] + (i // 10), need_pv=g[2],
                reward_chips=g[3], reward_cash=g[4], reward_pv=g[5], text=f"stub card {i + 1}")
    for i, g in enumerate(_G * 4) if i < 35)


class Effect(BaseModel):
    model_config = ConfigDict(frozen=True)
    kind: Literal["cash", "pv", "ev_lose", "go_dc", "move_to", "skip_turn", "extra_question"]
    amount: int = 0
    who: Literal["you", "each_other", "all", "pv_leader", "ev_leader", "poorest"] = "you"
    state: str | None = None
    from_others: bool = False


class Wildcard(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str
    kind: Literal["charades", "drawing", "physical", "sing", "direct", "event"]
    text: str
    secret: str | None = None
    accept: tuple[str, ...] = ()
    seconds: int = 120
    effects: tuple[Effect, ...] = ()


_EV = [((Effect(kind="cash", amount=5),)), ((Effect(kind="pv", amount=-10),)), ((Effect(kind="ev_lose", amount=12),)),
       ((Effect(kind="go_dc"),)), ((Effect(kind="move_to", state="IA"),)), ((Effect(kind="skip_turn"),)),
       ((Effect(kind="extra_question"),)), ((Effect(kind="cash", amount=2, who="you", from_others=True),)),
       ((Effect(kind="pv", amount=-5, who="pv_leader"),)), ((Effect(kind="cash", amount=3, who="poorest"),))]
WILDCARDS: tuple[Wildcard, ...] = tuple(
    [Wildcard(id=f"charades-{i}", kind="charades", text="Act out the phrase.", secret=s)
     for i, s in enumerate(["Town hall meeting", "Kissing babies", "Stump speech", "Ballot box", "Filibuster",
                            "Recount", "Debate night", "Photo op", "Campaign bus", "Victory lap"])]
    + [Wildcard(id=f"drawing-{i}", kind="drawing", text="Draw the thing.", secret=s)
       for i, s in enumerate(["White House", "Eagle", "Flag", "Gavel", "Podium", "Balloon", "Donkey", "Elephant",
                              "Capitol", "Statue of Liberty"])]
    + [Wildcard(id=f"physical-{i}", kind="physical", text=f"Do {10 + i} jumping jacks while saying your slogan.")
       for i in range(10)]
    + [Wildcard(id=f"sing-{i}", kind="sing", text=f"Recite verse {i + 1} of a patriotic song in a whisper.")
       for i in range(10)]
    + [Wildcard(id=f"direct-{i}", kind="direct", text="Direct another candidate to act this out.", secret=s)
       for i, s in enumerate(["Hitting a home run", "Shaking hands", "Riding a bike", "Cutting a ribbon",
                              "Rowing a boat", "Flipping pancakes", "Walking a dog", "Hailing a taxi",
                              "Painting a wall", "Casting a vote"])]
    + [Wildcard(id=f"event-{i}", kind="event", text=f"Campaign event {i}.", effects=e) for i, e in enumerate(_EV)]
)
