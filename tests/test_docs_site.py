"""The documentation site (mkdocs.yml, docs/) builds with warnings as errors, and no internal link is broken.

``mkdocs build --strict`` fails on a page missing from the navigation, a link to a page
that does not exist or an anchor it does not have; this test then reads every built page
and checks each internal link and image itself (the page, and the anchor on it), checks
the README's links into the repository and docs/, and runs the examples of the pages.
MkDocs, Material and mkdocstrings are the ``docs`` extra: without them this fails.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import unoengine

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"

PAGES_WITH_EXAMPLES = sorted(page.name for page in DOCS.glob("*.md") if ">>> " in page.read_text(encoding="utf-8"))
"""The pages whose ``>>>`` examples run here (the guides that left the README, ACTIONS.md …)."""

MARKERS = ("server-load", "server-actor", "notify-commit", "rl-speed")
"""The blocks the benchmarks rewrite with ``--write docs/PERFORMANCE.md``."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per process into a temporary folder with ``mkdocs build --strict``."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


class _Page(HTMLParser):
    """The ids of a built page and the internal links and images it holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name in ("id", "name"):
            if values.get(name) and (name == "id" or tag == "a"):
                self.ids.add(str(values[name]))
        target = values.get("href") if tag in ("a", "link") else values.get("src") if tag in ("img", "script") else None
        if target is None:
            return
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or target.startswith(("mailto:", "javascript:")):
            return
        self.links.append(target)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _target(site: Path, page: Path, link: str) -> tuple[Path, str]:
    """The built file a link of ``page`` points to, and its anchor ('' for none)."""
    parts = urlsplit(link)
    path = unquote(parts.path)
    if not path:
        return page, parts.fragment
    file = (site / path.lstrip("/")) if path.startswith("/") else (page.parent / path)
    file = Path(os.path.normpath(file))
    if path.endswith("/") or file.is_dir():
        file = file / "index.html"
    return file, parts.fragment


def test_the_site_builds_strictly(site: Path) -> None:
    pages = {str(path.relative_to(site)) for path in site.rglob("index.html")}
    for expected in ("index.html", "api/index.html", "PERFORMANCE/index.html", "CONTRIBUTING/index.html"):
        assert expected in pages, sorted(pages)
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    missing = [name for name in unoengine.__all__ if name != "__version__" and f'id="unoengine.{name}"' not in api]
    assert not missing, f"docs/api.md's list of members lacks {missing}"  # every public name, from its docstring
    for name in ("core.engine.apply", "core.views.view_for", "core.notation", "core.record", "bots.make_bot", "rl"):
        assert f'id="unoengine.{name}"' in api, name


def test_every_internal_link_and_anchor_of_the_site_resolves(site: Path) -> None:
    pages = {path: _read(path) for path in site.rglob("*.html") if path.name != "404.html"}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            file, anchor = _target(site, path, link)
            if not file.exists():
                broken.append(f"{path.relative_to(site)}: {link} (no {file})")
            elif anchor and file.suffix == ".html":
                ids = pages[file].ids if file in pages else _read(file).ids
                if anchor not in ids:
                    broken.append(f"{path.relative_to(site)}: {link} (no anchor #{anchor})")
    assert not broken, "\n".join(broken)


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub (and the site's pymdownx slugify) makes it."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(markdown: Path) -> set[str]:
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    fence = False
    for line in markdown.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and (match := re.match(r"#{1,6} (.*)", line)):
            slug = _slug(match.group(1))
            anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
            seen[slug] = seen.get(slug, 0) + 1
    return anchors


def _links(markdown: str) -> list[str]:
    """The targets of a Markdown text's links and images, outside code."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_the_readme_links_into_the_repository_and_the_docs_resolve() -> None:
    links = [link for link in _links(README.read_text(encoding="utf-8")) if not urlsplit(link).scheme]
    assert any(link.startswith("docs/") for link in links)
    broken = []
    for link in links:
        path, _, anchor = link.partition("#")
        file = (ROOT / unquote(path)) if path else README
        if not file.exists():
            broken.append(f"{link}: no {file.relative_to(ROOT)}")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{link}: {file.relative_to(ROOT)} has no heading #{anchor}")
    assert not broken, "\n".join(broken)


def test_the_readme_is_a_front_page() -> None:
    """At most 250 lines: the pitch, the Quick start, a short tour, a picture, a link per subject."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert "## Quick start" in text and ">>> " in text and "docs/screenshots/" in text


def test_every_page_of_docs_is_in_the_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [page.name for page in DOCS.glob("*.md") if f": {page.name}" not in config]
    assert not missing, missing


@pytest.mark.parametrize("marker", MARKERS)
def test_the_benchmarks_blocks_are_on_the_performance_page(marker: str) -> None:
    """``--write docs/PERFORMANCE.md`` finds its block there, once; the README keeps none."""
    page = (DOCS / "PERFORMANCE.md").read_text(encoding="utf-8")
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    assert page.count(begin) == 1 and page.count(end) == 1 and page.index(begin) < page.index(end)
    assert begin not in README.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", PAGES_WITH_EXAMPLES)
def test_the_examples_of_the_page_run(name: str) -> None:
    """The ``>>>`` examples of a page hold, as pytest holds the README's (one namespace a page)."""
    result = doctest.testfile(str(DOCS / name), module_relative=False, verbose=False, report=True)
    assert result.attempted > 0 and result.failed == 0, f"{name}: {result}"
