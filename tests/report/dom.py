"""An HTML page as a tree, read with the standard library's ``html.parser`` (a real parser,
not a regex), and its inline SVG boards read again with ``xml.etree``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"meta", "br", "link", "img", "input", "hr", "col", "source", "wbr", "area", "base", "embed", "param", "track"}
SVG_LEAVES = {"rect", "polygon", "path", "line", "circle", "ellipse", "polyline", "use"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    parent: "Node | None" = None
    children: list["Node"] = field(default_factory=list)
    text: str = ""

    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def all(self, tag: str | None = None, cls: str | None = None) -> list["Node"]:
        found = []
        for child in self.children:
            if (tag is None or child.tag == tag) and (cls is None or cls in child.classes()):
                found.append(child)
            found.extend(child.all(tag, cls))
        return found

    def one(self, tag: str | None = None, cls: str | None = None) -> "Node":
        found = self.all(tag, cls)
        assert len(found) == 1, f"{len(found)} <{tag} class={cls}>"
        return found[0]

    def text_content(self) -> str:
        return self.text + "".join(child.text_content() for child in self.children)

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.current.tag != tag:
            self.errors.append(f"</{tag}> closes <{self.current.tag}>")
            return
        self.current = self.current.parent

    def handle_data(self, data):
        if self.current.children:
            self.current.children[-1].text += ""  # text after a child belongs to the parent
        self.current.text += data


def parse_html(text: str) -> Node:
    """The document tree; every element closed where it was opened (asserted)."""
    builder = _Builder()
    builder.feed(text)
    builder.close()
    assert not builder.errors, builder.errors[:5]
    assert builder.current is builder.root, f"<{builder.current.tag}> never closed"
    return builder.root


def svg_boards(text: str) -> list[ET.Element]:
    """Every inline ``<svg>`` of the page, parsed as XML (so each is well-formed on its own)."""
    boards, start = [], 0
    while (i := text.find("<svg", start)) >= 0:
        j = text.index("</svg>", i) + len("</svg>")
        boards.append(ET.fromstring(text[i:j]))
        start = j
    return boards
