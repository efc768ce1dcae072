"""Tags on suite positions: picking the positions of ``suite --tags ep,castling`` and
grouping the failing positions by tag ("all 14 failing positions are tagged ep-pin").

A position's tags are its ``tags "ep ep-pin"`` operation, read by
``chesskit.suites.formats`` into ``SuiteRecord.tags``; what the bundled tags mean is in
positions/README.md (tools/tag_positions.py derives them)::

    >>> from pathlib import Path
    >>> from chesskit.suites.formats import SuiteRecord
    >>> a = SuiteRecord("a", "", {1: 1}, {}, Path("x.epd"), 1, tags=("ep", "ep-pin"))
    >>> b = SuiteRecord("b", "", {1: 1}, {}, Path("x.epd"), 2, tags=("ep",))
    >>> [r.id for r in select([a, b], ("ep-pin",))]
    ['a']
    >>> summary_line([a, b])
    'failures by tag: all 2 failing positions are tagged ep; some also: ep-pin 1'
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from chesskit.errors import InputError
from chesskit.suites.formats import SuiteRecord


def select(records: Iterable[SuiteRecord], wanted: Sequence[str]) -> list[SuiteRecord]:
    """The records that carry at least one of the ``wanted`` tags, in order. Raises
    InputError for a wanted tag that no record carries (a misspelt tag would otherwise
    run a smaller suite without a word), naming the tags there are."""
    records = list(records)
    known = Counter(tag for record in records for tag in record.tags)
    unknown = [tag for tag in wanted if tag not in known]
    if unknown:
        there = ", ".join(sorted(known)) if known else "none: no position here has a 'tags' operation"
        raise InputError(
            f"--tags: no position of these suites is tagged {', '.join(repr(t) for t in unknown)} (tags there: {there})"
        )
    chosen = set(wanted)
    return [record for record in records if chosen.intersection(record.tags)]


def failing_positions(records: Iterable[SuiteRecord]) -> list[SuiteRecord]:
    """Each record once, in order (a position failing at several depths counts once)."""
    return list({id(record): record for record in records}.values())


def by_tag(records: Iterable[SuiteRecord]) -> dict[str, int]:
    """``{tag: how many of the positions carry it}``, most first (then by name); each
    position counted once."""
    counts = Counter(tag for record in failing_positions(records) for tag in record.tags)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def summary_line(records: Iterable[SuiteRecord]) -> str | None:
    """One line grouping the failing positions by tag, or None when none of them has a
    tag (a suite without tags prints nothing more than before)."""
    failing = failing_positions(records)
    counts = by_tag(failing)
    if not counts:
        return None
    n = len(failing)
    everywhere = [tag for tag, count in counts.items() if count == n]
    some = [f"{tag} {count}" for tag, count in counts.items() if count < n]
    untagged = sum(not record.tags for record in failing)
    if everywhere:
        who = "the failing position is" if n == 1 else f"all {n} failing positions are"
        text = f"{who} tagged {', '.join(everywhere)}" + (f"; some also: {', '.join(some)}" if some else "")
    else:
        text = f"{n} failing positions: {', '.join(some)}" + (f"; untagged {untagged}" if untagged else "")
    return f"failures by tag: {text}"
