"""The building blocks of the reports: highlighting, escaping, colours, charts."""

from __future__ import annotations

from html_probe import parse, select

from phiscrub.report.evaluation import _masked_context
from phiscrub.report.html import Mark, colour, highlight, page
from phiscrub.report.svg import bar_chart, grouped_bar_chart, histogram


def test_highlight_escapes_text_and_attributes() -> None:
    text = 'a <b>"x"</b> & Zoltan'
    html = highlight(text, [Mark(15, 21, 'NA"ME', tooltip="<t>")])
    assert html.startswith("a &lt;b&gt;&quot;x&quot;&lt;/b&gt; &amp; ")
    (mark,) = select(parse(html), "mark")
    assert mark.text == "Zoltan" and mark.attrs["data-label"] == 'NA"ME' and mark.attrs["title"] == "<t>"


def test_highlight_clips_overlaps_and_keeps_every_character_once() -> None:
    text = "0123456789"
    html = highlight(text, [Mark(2, 6, "A"), Mark(4, 8, "B"), Mark(5, 6, "C")])
    els = parse(html)
    assert [(m.attrs["data-label"], m.text) for m in select(els, "mark")] == [("A", "2345"), ("B", "67")]
    assert select(parse(f"<div>{html}</div>"), "div")[0].text == text
    assert highlight(text, [], 3, 6) == "345"


def test_masked_context_never_shows_part_of_a_masked_stretch() -> None:
    text = "Seen by Dr. Zoltan Quenwick on 03/12/2019 in Wexhampton."
    err = {"start": 12, "end": 18, "label": "NAME"}  # a false positive inside a longer gold name
    masks = [(8, 27, "NAME"), (31, 41, "DATE"), (45, 55, "LOCATION")]
    html = _masked_context(text, err, "fp", masks)
    for phi in ("Zoltan", "Quenwick", "Dr.", "03/12/2019", "Wexhampton"):
        assert phi not in html
    marks = select(parse(html), "mark")
    assert [m.text for m in marks] == ["[NAME]", "[DATE]", "[LOCATION]"]
    assert "err" in marks[0].classes and "fp" in marks[0].classes


def test_colours_match_the_review_page() -> None:
    assert colour("NAME") == "#f6a6a6" and colour("DATE") == "#9fc5f8"
    assert colour("DOCTOR") == colour("DOCTOR") and colour("DOCTOR").startswith("#")


def test_charts_carry_their_values() -> None:
    els = parse(bar_chart([("NAME", 3), ("DATE", 0)], "t"))
    assert [(r.attrs["data-label"], r.attrs["data-value"]) for r in select(els, "rect", "bar")] == [
        ("NAME", "3"),
        ("DATE", "0"),
    ]
    assert select(els, "rect", "bar")[1].attrs["width"] == "0.0"
    els = parse(grouped_bar_chart(["A"], [("P", [0.5], "#000"), ("R", [1.5], "#111")], "t"))
    assert [r.attrs["data-value"] for r in select(els, "rect", "bar")] == ["0.5000", "1.0000"]
    els = parse(histogram([("0", 2), ("1", 5)], "t", "x"))
    assert [r.attrs["data-value"] for r in select(els, "rect", "bar")] == ["2", "5"]
    assert "empty" in select(parse(histogram([], "t", "x")), "svg")[0].classes


def test_the_page_forbids_every_fetch() -> None:
    html = page("t", "s", ["<section>x</section>"], "f")
    (csp,) = [
        m for m in select(parse(html), "meta") if m.attrs.get("http-equiv") == "Content-Security-Policy"
    ]
    assert csp.attrs["content"].startswith("default-src 'none'")
