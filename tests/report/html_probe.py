"""A small reader of the report HTML for tests (the standard library's ``html.parser``).

:func:`parse` gives every element with its attributes, its classes and its text content (the text of
all its descendants), in document order, with the chain of its ancestors, so tests can ask for "the
``rect.bar`` elements inside ``#chart-labels``".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

_VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base", "source", "wbr"}


@dataclass
class Element:
    """One element: tag, attributes, ancestors (ids and classes) and text content."""

    tag: str
    attrs: dict[str, str]
    ancestors: list[Element] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def within(self, element_id: str) -> bool:
        """Whether an ancestor has the id ``element_id``."""
        return any(a.attrs.get("id") == element_id for a in self.ancestors)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.stack: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs}, list(self.stack))
        self.elements.append(el)
        if tag not in _VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}, list(self.stack)))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        for el in self.stack:
            el.parts.append(data)


def parse(html: str) -> list[Element]:
    """Every element of ``html`` in document order."""
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.elements


def select(
    elements: list[Element], tag: str, cls: str | None = None, within: str | None = None
) -> list[Element]:
    """Elements with ``tag``, having class ``cls``, inside the element with id ``within``."""
    return [
        el
        for el in elements
        if el.tag == tag and (cls is None or cls in el.classes) and (within is None or el.within(within))
    ]


def bars(elements: list[Element], within: str) -> dict[str, float]:
    """``data-label -> data-value`` of the ``rect.bar`` elements inside ``#within``."""
    return {
        el.attrs["data-label"]: float(el.attrs["data-value"])
        for el in select(elements, "rect", "bar", within)
    }
