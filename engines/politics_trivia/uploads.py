"""Custom questions a server uploads (CSV or JSON): checked row by row, stored as rows, and
turned back into Questions when a game draws from its server's pile.

Apart from questions.py (the built-in bank) because the checks use answers.normalise, and
answers.py reads the bank: this way neither of the two imports the other back.
"""
from __future__ import annotations

import csv
import hashlib
import json
import re

from .answers import normalise
from .facts_states import BY_CODE
from .questions import MAX_CHOICE, MAX_TEXT, Question

MAX_UPLOAD_BYTES = 256 * 1024
MAX_ROWS = 500
_CATEGORY_ALIASES = {
    "state": "state", "states": "state",
    "general": "general", "history": "general", "geography": "general",
    "government": "government", "gov": "government", "govt": "government", "politics": "government",
    "political": "government", "civics": "government",
}
_FIELDS = ("category", "question", "answer", "wrong1", "wrong2", "wrong3")


class UploadError(ValueError):
    """A custom-question file was refused. str() is one sentence; .errors lists every problem found."""

    def __init__(self, message: str, errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.errors = errors or [message]


def _clean(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return "\0"  # marks a wrong type
    return " ".join(value.split())


def _check_row(label: str, raw: dict, seen: dict[str, str]) -> dict:
    cat_raw = _clean(raw.get("category"))
    text = _clean(raw.get("question") if raw.get("question") is not None else raw.get("text"))
    answer = _clean(raw.get("answer"))
    wrong_raw = raw.get("wrong")
    if isinstance(wrong_raw, list):
        wrong = [_clean(w) for w in wrong_raw]
    elif isinstance(wrong_raw, str):
        wrong = [_clean(wrong_raw)]
    else:
        wrong = [_clean(raw.get(k)) for k in ("wrong1", "wrong2", "wrong3")]
    state = _clean(raw.get("state")).upper()
    if "\0" in (cat_raw, text, answer, state) or "\0" in wrong:
        raise UploadError(f"{label}: every field must be text.")
    if not cat_raw:
        raise UploadError(f"{label}: the category is missing.")
    cat = _CATEGORY_ALIASES.get(cat_raw.casefold())
    if cat is None:
        raise UploadError(f"{label}: the category must be state, general or government.")
    if not text:
        raise UploadError(f"{label}: the question is missing.")
    if len(text) > MAX_TEXT:
        raise UploadError(f"{label}: the question is longer than {MAX_TEXT} characters.")
    if not answer:
        raise UploadError(f"{label}: the answer is missing.")
    if len(answer) > MAX_CHOICE:
        raise UploadError(f"{label}: the answer is longer than {MAX_CHOICE} characters.")
    wrong = [w for w in wrong if w]
    if not wrong:
        raise UploadError(f"{label}: give at least one wrong choice.")
    if len(wrong) > 3:
        raise UploadError(f"{label}: give at most three wrong choices.")
    for w in wrong:
        if len(w) > MAX_CHOICE:
            raise UploadError(f"{label}: a wrong choice is longer than {MAX_CHOICE} characters.")
    keys = [normalise(answer)] + [normalise(w) for w in wrong]
    if not keys[0]:
        raise UploadError(f"{label}: the answer must contain letters or digits.")
    if keys[0] in keys[1:]:
        raise UploadError(f"{label}: a wrong choice is the same as the answer.")
    if len(set(keys[1:])) != len(keys) - 1 or "" in keys[1:]:
        raise UploadError(f"{label}: the wrong choices must all be different.")
    if state:
        if state not in BY_CODE:
            raise UploadError(f"{label}: \"{state}\" is not a state postal code (use two letters like TX).")
        if cat != "state":
            raise UploadError(f"{label}: only State questions can name a state.")
        if state == "DC":   # nobody answers a question in D.C., so it could never be asked
            raise UploadError(f"{label}: D.C. has no State questions (nobody answers one there); "
                              "make it a government question without a state.")
    elif cat == "state":
        # A State question is drawn only in the state it names: without one it could never be asked.
        raise UploadError(f"{label}: a State question must name its state (a postal code like TX in the state column).")
    key = normalise(text)
    if key in seen:
        raise UploadError(f"{label}: this question repeats {seen[key]}.")
    seen[key] = label.lower()
    return {"category": cat, "text": text, "answer": answer, "wrong": wrong, "state": state or None}


def parse_upload(filename: str, data: bytes) -> list[dict]:
    """Validate an uploaded CSV or JSON file of questions; return plain dicts
    {category, text, answer, wrong: [..], state} ready to store (JSON-able)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"The file is larger than {MAX_UPLOAD_BYTES // 1024} KB.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadError("The file is not UTF-8 text; save it as CSV UTF-8 or JSON.") from None
    name = (filename or "").casefold()
    stripped = text.lstrip()
    if name.endswith(".json") or (not name.endswith(".csv") and stripped.startswith(("[", "{"))):
        rows = _json_rows(text)
    else:
        rows = _csv_rows(text)
    if not rows:
        raise UploadError("The file has no questions.")
    if len(rows) > MAX_ROWS:
        raise UploadError(f"The file has {len(rows)} questions; the limit is {MAX_ROWS}.")
    seen: dict[str, str] = {}
    out: list[dict] = []
    errors: list[str] = []
    for label, raw in rows:
        try:
            out.append(_check_row(label, raw, seen))
        except UploadError as e:
            errors.append(str(e))
    if errors:
        raise UploadError(errors[0], errors)
    return out


def _json_rows(text: str) -> list[tuple[str, dict]]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise UploadError(f"The JSON is not valid (line {e.lineno}: {e.msg.lower()}).") from None
    if isinstance(doc, dict) and isinstance(doc.get("questions"), list):
        doc = doc["questions"]
    if not isinstance(doc, list):
        raise UploadError("The JSON must be a list of question objects.")
    rows = []
    for i, item in enumerate(doc, start=1):
        if not isinstance(item, dict):
            raise UploadError(f"Row {i}: each entry must be an object with category, question, answer and wrong "
                              "choices.")
        rows.append((f"Row {i}", {str(k).strip().casefold(): v for k, v in item.items()}))
    return rows


def _csv_rows(text: str) -> list[tuple[str, dict]]:
    lines = text.splitlines(keepends=True)
    first = lines[0] if lines else ""
    delimiter = max((",", ";", "\t"), key=first.count)
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise UploadError("The file is empty.") from None
    except csv.Error as e:
        raise UploadError(f"Row 1: the CSV could not be read ({e}).") from None
    alias = {"text": "question", "wrong": "wrong1", "wrong 1": "wrong1", "wrong 2": "wrong2", "wrong 3": "wrong3"}
    header = [alias.get(h.strip().casefold(), h.strip().casefold()) for h in header]
    missing = [f for f in ("category", "question", "answer", "wrong1") if f not in header]
    if missing:
        raise UploadError("Row 1 must be the header: category,question,answer,wrong1,wrong2,wrong3,state.")
    rows = []
    try:
        for rec in reader:
            if not any(c.strip() for c in rec):
                continue
            label = f"Row {reader.line_num}"
            if len(rec) > len(header):
                extra = [c for c in rec[len(header):] if c.strip()]
                if extra:
                    raise UploadError(f"{label}: there are more fields than header columns (a comma inside a text "
                                      "needs quotes).")
            rows.append((label, {h: rec[i] if i < len(rec) else "" for i, h in enumerate(header)}))
    except csv.Error as e:
        raise UploadError(f"Row {reader.line_num}: the CSV could not be read ({e}).") from None
    return rows


def row_text(row: dict) -> str:
    """A stored row's question text (uploads store `text`; older rows may say `question`)."""
    return str(row.get("text") if row.get("text") is not None else row.get("question", ""))


def custom_id(row: dict) -> str:
    """The row's stored id if it has one, else a stable hash of its content."""
    if row.get("id"):
        return str(row["id"])
    key = "\x1f".join([str(row.get("category", "")), row_text(row), str(row.get("answer", ""))])
    return "custom-" + hashlib.sha256(key.encode()).hexdigest()[:12]


_NEEDS_CHOICES = re.compile(r"\b(which|what) of (these|the following)\b|\bNOT\b")


def from_custom(rows: list[dict]) -> list[Question]:
    """Stored custom rows (as returned by parse_upload, optionally with an "id") back to
    Questions; rows that no longer validate are skipped."""
    out: list[Question] = []
    seen: set[str] = set()
    for row in rows:
        try:
            text = row_text(row)
            wrong = tuple(str(w) for w in row.get("wrong", ()) if str(w).strip())[:3]
            q = Question(id=custom_id(row), category=row["category"], text=text,
                         answer=str(row["answer"]), wrong=wrong, state=row.get("state") or None,
                         free_text=not _NEEDS_CHOICES.search(text))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if not q.wrong or not q.text or not q.answer or q.id in seen:
            continue
        seen.add(q.id)
        out.append(q)
    return out
