"""Server data: the questions used on a Discord server, and custom question
uploads."""
from __future__ import annotations

from ..core import RuleError
from . import uploads
from .board import MAX_CUSTOM, _plural
from .models import TriviaState

MAX_LISTED_PROBLEMS = 10  # an upload's refusal names this many bad rows, then counts the rest


def upload_refusal(errors: list[str]) -> str:
    """Every bad row of a refused upload, one a line, up to a cap (a message has 2,000 characters)."""
    shown = errors[:MAX_LISTED_PROBLEMS]
    lines = [f"Nothing was stored: {_plural(len(errors), 'problem')} in the file."] + [f"• {e}" for e in shown]
    if len(errors) > len(shown):
        lines.append(f"… and {len(errors) - len(shown)} more.")
    return "\n".join(line if len(line) <= 180 else line[:179] + "…" for line in lines)


# ---- the hooks of the engine contract: used questions and custom uploads ----
def server_updates(state: TriviaState) -> dict:
    if not state.drew:
        return {}
    return {"used": list(state.used)}


def server_import(kind: str, filename: str, data: bytes, current: dict) -> tuple[dict, str]:
    if kind != "questions":
        raise RuleError("This game stores only custom uploads.")
    try:
        rows = uploads.parse_upload(filename, data)
    except uploads.UploadError as exc:
        raise RuleError(upload_refusal(getattr(exc, "errors", None) or [str(exc)])) from None
    existing = [dict(r) for r in current.get("questions", []) if isinstance(r, dict)]
    have = {uploads.custom_id(r) for r in existing}
    added = []
    for r in rows:
        cid = uploads.custom_id(r)
        if cid in have:
            continue
        have.add(cid)
        added.append(dict(r))
    if len(existing) + len(added) > MAX_CUSTOM:
        raise RuleError(f"Nothing was stored: a server may keep at most {MAX_CUSTOM:,} custom questions; it has "
                        f"{len(existing)} and the file adds {len(added)}.")
    new = dict(current)
    new["questions"] = existing + added
    cats: dict[str, int] = {}
    for r in added:
        cats[r["category"]] = cats.get(r["category"], 0) + 1
    by = ", ".join(f"{v} {k}" for k, v in sorted(cats.items())) or "none new"
    dup = len(rows) - len(added)
    report = f"Added {_plural(len(added), 'custom question')} ({by})"
    if dup:
        report += f"; {dup} already stored {'was' if dup == 1 else 'were'} skipped"
    report += (f". This server now has {len(new['questions'])}; they join the draw in new games "
               "(/politics questions list shows their ids).")
    return new, report


def server_list(kind: str, current: dict) -> str:
    rows = [r for r in current.get("questions", []) if isinstance(r, dict)]
    if not rows:
        return "This server has no custom uploads. Admins add some with /politics questions upload (CSV or JSON)."
    lines = [f"**{len(rows)} custom question{'s' if len(rows) != 1 else ''}** (remove one with /politics "
             "questions remove id:<id>, or all with id:all):"]
    size = len(lines[0])
    for i, r in enumerate(rows):
        st = f" [{r.get('state')}]" if r.get("state") else ""
        text = uploads.row_text(r)
        line = f"• `{uploads.custom_id(r)}` {r.get('category')}{st}: {text[:70]}{'…' if len(text) > 70 else ''}"
        if size + len(line) > 1800:
            lines.append(f"… and {len(rows) - i} more.")
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def server_remove(kind: str, ident: str, current: dict) -> tuple[dict, str]:
    rows = [r for r in current.get("questions", []) if isinstance(r, dict)]
    key = ident.strip().lower()
    new = dict(current)
    if key == "all":
        new["questions"] = []
        return new, f"Removed all {_plural(len(rows), 'custom question')}."
    if not key.startswith("custom-"):
        key = f"custom-{key}"
    keep = [r for r in rows if uploads.custom_id(r) != key]
    if len(keep) == len(rows):
        raise RuleError(f"There is no custom question '{ident[:40]}'; /politics questions list shows the ids.")
    new["questions"] = keep
    return new, f"Removed custom question {key}; {_plural(len(keep), 'custom question')} left."
