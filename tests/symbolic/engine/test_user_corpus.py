r"""The user corpus (:mod:`tests.symbolic.engine.corpus`): false claims written the way users write them are all
rejected, none by the symbolic line saying true, each rejection naming its construct; true claims about positional
encodings verify.

Set ``POSPROOF_CORPUS_REPORT`` to a path to have the outcomes (false claims still accepted, true claims failing,
rejections that do not name their construct), grouped by class, written there as Markdown.
"""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest

from tests.symbolic.engine.corpus.false_claims import FALSE, ISSUE_CLASSES
from tests.symbolic.engine.corpus.true_claims import TRUE


def _names(entry) -> tuple[str, ...]:
    return (entry.names,) if isinstance(entry.names, str) else tuple(entry.names)


def _outcome(entry) -> dict:
    r"""What happened to ``entry``: ``how`` is ``"refused"`` (``ValueError`` when built), ``"verified"`` (``verify``
    returned), or ``"crashed"`` (another exception, when built or verified); ``text`` the message or detail."""
    t0 = time.perf_counter()
    try:
        claim = entry.build()
    except ValueError as e:
        return {"how": "refused", "text": str(e), "ok": False, "symbolic": None, "seconds": time.perf_counter() - t0}
    except Exception as e:  # a builder that crashes otherwise is a bug of the engine's API: reported
        return {"how": "crashed", "text": f"building raised {type(e).__name__}: {e}", "ok": None, "symbolic": None,
                "seconds": time.perf_counter() - t0}  # fmt: skip
    try:
        r = claim.verify()
    except Exception as e:  # verify must report, never raise
        return {"how": "crashed", "text": f"verify raised {type(e).__name__}: {e}", "ok": None, "symbolic": None,
                "seconds": time.perf_counter() - t0}  # fmt: skip
    return {"how": "verified", "text": r.detail, "ok": r.ok, "symbolic": r.symbolic,
            "seconds": time.perf_counter() - t0}  # fmt: skip


def _false_problem(entry, out: dict) -> str:
    r"""Why the false claim ``entry`` is not properly rejected (``""`` if it is)."""
    if out["how"] == "crashed":
        return out["text"]
    if out["how"] == "verified" and out["ok"]:
        return "ACCEPTED (verify ok True)" + (", symbolic True" if out["symbolic"] is True else "")
    if out["symbolic"] is True:
        return "symbolic True (rejected only by the numeric line)"
    names = _names(entry)
    if names and not any(nm.lower() in out["text"].lower() for nm in names):
        return f"rejected, but the message does not name {' / '.join(names)}"
    return ""


def _true_problem(out: dict) -> str:
    if out["how"] == "verified" and out["ok"]:
        return ""
    return {"refused": "refused", "crashed": "crashed", "verified": "failed"}[out["how"]]


def _report(false_out: list, true_out: list) -> str:
    lines = ["# User corpus: outcomes", ""]
    bad_false = [(e, o, _false_problem(e, o)) for e, o in zip(FALSE, false_out, strict=True)]
    bad_false = [t for t in bad_false if t[2]]
    bad_true = [(e, o, _true_problem(o)) for e, o in zip(TRUE, true_out, strict=True)]
    bad_true = [t for t in bad_true if t[2]]
    total = sum(o["seconds"] for o in false_out + true_out)
    lines += [
        f"False claims: {len(FALSE)}; not properly rejected: {len(bad_false)} "
        f"(accepted: {sum(1 for _, _, p in bad_false if p.startswith('ACCEPTED'))}, "
        f"symbolic True: {sum(1 for _, o, _ in bad_false if o['symbolic'] is True)}, "
        f"crashed: {sum(1 for _, o, _ in bad_false if o['how'] == 'crashed')}, "
        f"construct not named: {sum(1 for _, _, p in bad_false if 'does not name' in p)}).",
        f"True claims: {len(TRUE)}; failing: {len(bad_true)}. Time: {total:.1f} s.",
        "",
        "## False claims not properly rejected, by class",
        "",
    ]
    for cls in dict.fromkeys(e.cls for e, _, _ in bad_false):
        lines += [f"### {cls}", ""]
        for e, o, p in bad_false:
            if e.cls == cls:
                lines.append(f"- **{e.description}**: {p}. Detail: `{o['text'][:400]}`")
        lines.append("")
    lines += ["## True claims that fail, by topic", ""]
    for cls in dict.fromkeys(e.cls for e, _, _ in bad_true):
        lines += [f"### {cls}", ""]
        for e, o, p in bad_true:
            if e.cls == cls:
                lines.append(f"- **{e.description}**: {p}. Detail: `{o['text'][:400]}`")
        lines.append("")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def outcomes():
    false_out = [_outcome(e) for e in FALSE]
    true_out = [_outcome(e) for e in TRUE]
    path = os.environ.get("POSPROOF_CORPUS_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(_report(false_out, true_out))
    return false_out, true_out


def test_the_corpus_is_large_and_covers_every_class():
    classes = Counter(e.cls for e in FALSE)
    assert len(FALSE) >= 90 and len(TRUE) >= 35
    assert set(ISSUE_CLASSES) <= set(classes), set(ISSUE_CLASSES) - set(classes)
    assert len(set(classes) - set(ISSUE_CLASSES)) >= 2
    assert all(_names(e) for e in FALSE), [e.description for e in FALSE if not _names(e)]


@pytest.mark.parametrize("index", range(len(FALSE)), ids=[f"{e.cls}: {e.description}" for e in FALSE])
def test_every_false_claim_is_rejected_naming_its_construct(outcomes, index):
    entry, out = FALSE[index], outcomes[0][index]
    problem = _false_problem(entry, out)
    assert not problem, (entry.cls, entry.description, problem, out["text"])


@pytest.mark.parametrize("index", range(len(TRUE)), ids=[f"{e.cls}: {e.description}" for e in TRUE])
def test_every_true_claim_verifies(outcomes, index):
    entry, out = TRUE[index], outcomes[1][index]
    assert not _true_problem(out), (entry.cls, entry.description, out["how"], out["text"])
