"""JUnit XML for ``chesskit suite --junit FILE``, so any CI system shows which counts failed.

One ``<testsuite>`` per EPD file, one ``<testcase>`` per position and depth::

    <testsuites name="chesskit suite" tests="3" failures="1" errors="0" time="0.520000">
      <testsuite name="positions/standard.epd" tests="3" failures="1" errors="0" time="0.520000">
        <testcase classname="standard" name="kiwipete D1" time="0.000412"/>
        <testcase classname="standard" name="kiwipete D2" time="0.010352">
          <failure type="mismatch" message="D2: expected 2039, got 2038 ...">the full report</failure>
        </testcase>
        <testcase classname="standard" name="kiwipete D3" ...><error type="engine" message="..."/></testcase>
        <testcase classname="standard" name="line 7"><error type="input" message="positions/standard.epd:7: ..."/></testcase>
        <testcase classname="standard" name="kiwipete D4"><skipped message="not run: the engine failed on D3 ..."/></testcase>

``<error type="input">`` is a line of a suite that could not be run (unreadable, or a
position that cannot be counted); ``type="engine"``, the engine failed on that count
(crashed, hung, exited, printed what cannot be read); ``<skipped>`` a count not made (after
the engine failed on the position, after --fail-fast, or over --max-nodes).
A testcase's ``time`` is its count's, to the microsecond; the count the engine failed on
has the time until it failed, and a mismatch's compare's descent is its count's too.
Text that XML 1.0 cannot hold (control characters) is escaped as ``\\x07``, so the file is
always well-formed.

Pure logic over ``Case`` records; the caller decides the texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Case:
    """One testcase: ``failure``/``error`` hold the one-line message, ``details`` the long text."""

    suite: str  # the testsuite it belongs to (the EPD file)
    classname: str
    name: str
    seconds: float = 0.0
    failure: str | None = None
    error: str | None = None
    details: str = ""
    error_type: str = "engine"
    skipped: str | None = None  # not run, and why (``<skipped message=...>``)


# characters XML 1.0 cannot hold at all, not even as a character reference
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _xml_text(text: str) -> str:
    """``text`` with what XML cannot hold escaped as ``\\xNN`` (tabs and newlines kept)."""
    return _NOT_XML.sub(lambda m: ascii(m.group())[1:-1], text)


def _seconds(seconds: float) -> str:
    """A ``time`` attribute: to the microsecond, as ``--json``'s ``seconds`` (to the
    millisecond, every count of a small suite read ``0.000``)."""
    return f"{seconds:.6f}"


def to_element(cases: list[Case], name: str = "chesskit suite") -> ET.Element:
    import xml.etree.ElementTree as ET  # here: a suite run without --junit never loads it

    root = ET.Element("testsuites", name=name)
    suites: dict[str, ET.Element] = {}
    for case in cases:
        suite = suites.get(case.suite)
        if suite is None:
            suite = suites[case.suite] = ET.SubElement(root, "testsuite", name=_xml_text(case.suite))
        element = ET.SubElement(
            suite,
            "testcase",
            classname=_xml_text(case.classname),
            name=_xml_text(case.name),
            time=_seconds(case.seconds),
        )
        if case.failure is not None:
            ET.SubElement(element, "failure", type="mismatch", message=_xml_text(case.failure)).text = _xml_text(
                case.details or case.failure
            )
        elif case.error is not None:
            ET.SubElement(element, "error", type=case.error_type, message=_xml_text(case.error)).text = _xml_text(
                case.details or case.error
            )
        elif case.skipped is not None:
            ET.SubElement(element, "skipped", message=_xml_text(case.skipped))
    for element in [*suites.values(), root]:
        members = [c for c in cases if element is root or _xml_text(c.suite) == element.get("name")]
        element.set("tests", str(len(members)))
        element.set("failures", str(sum(c.failure is not None for c in members)))
        element.set("errors", str(sum(c.failure is None and c.error is not None for c in members)))
        element.set("skipped", str(sum(c.failure is None and c.error is None and c.skipped is not None for c in members)))
        element.set("time", _seconds(sum(c.seconds for c in members)))
    return root


def to_xml(cases: list[Case], name: str = "chesskit suite") -> str:
    import xml.etree.ElementTree as ET

    root = to_element(cases, name)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write(path: str | Path, cases: list[Case], name: str = "chesskit suite") -> None:
    """Write the XML to ``path`` (parent folders must exist), atomically: a temporary file
    renamed into place, so a crash or a full disk never leaves a truncated report."""
    from chesskit.outpath import write_atomic

    write_atomic(path, to_xml(cases, name))
