"""Code, tests and configuration cite the docs by page and section (``docs/design.md "Money"``,
CONTRIBUTING.md's conventions): every such citation, a README section's too, names a page that
exists and a heading on it, so moving or renaming a section cannot leave citations pointing
nowhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHERE = ["app", "tests", "bench", "deploy", "static/js", "tools", "migrations"]
FILES = ["pyproject.toml", "Makefile", "Dockerfile", "docker-compose.yml", ".env.example"]
SUFFIXES = {".py", ".lua", ".js", ".sh", ".yml", ".json", ".toml", ".example", ""}
# A page, then (maybe after a comma and a line break with its comment marker) a quoted section.
CITATION = re.compile(
    r"((?:docs/[\w/.-]+|CONTRIBUTING|bench/README)\.md|(?<![\w/])README(?:\.md)?),?"
    r"\s*(?:\n\s*(?:#|//|--|\*)?\s*)?"
    r'\\?"([A-Z][^"\\]*)\\?"'
)


def sources() -> list[Path]:
    found = [ROOT / name for name in FILES]
    for folder in WHERE:
        found += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in SUFFIXES]
    return found


def headings(page: Path) -> list[str]:
    return [
        line.lstrip("#").strip().replace("`", "")
        for line in page.read_text().splitlines()
        if line.startswith("#")
    ]


def test_every_cited_section_is_a_heading_of_its_page():
    wrong = []
    for path in sources():
        text = path.read_text(errors="replace")
        for page, section in CITATION.findall(text):
            section = re.sub(r"\s*\n\s*(?:#|//|--|\*)?\s*", " ", section).strip()
            target = ROOT / (page if page.endswith(".md") else page + ".md")
            if not target.exists() or not any(h.startswith(section) for h in headings(target)):
                wrong.append(f"{path.relative_to(ROOT)}: {page} {section!r}")
    assert not wrong, "\n".join(wrong)
