"""The catalogs against the sources: every message of the Python sources (said, said_n) and of the
browser's scripts (t, tn) is translated in every language, none is fuzzy or unused, and each
translation keeps its message's {placeholders}; and the extractor misses no call of the scripts."""

from __future__ import annotations

import re

from unoengine.i18n import catalogs

CALL = re.compile(r"\bt(?:n)?\(\s*\"((?:[^\"\\\\]|\\\\.)*)\"")


def test_every_catalog_is_complete_and_consistent_with_the_sources() -> None:
    problems = catalogs.check()
    assert not problems, (
        f"{len(problems)} catalog problem(s) (python -m unoengine.i18n.catalogs update, then translate):\n"
        + "\n".join(problems[:60])
    )


def test_the_extractor_reads_every_message_call_of_the_browser_scripts() -> None:
    """A call the extractor cannot read (inside a template literal's ${} with an object argument)
    would show English forever: every line with a t( or tn( call has an extracted message."""
    found = {message.id if isinstance(message.id, str) else message.id[0] for message in catalogs.extract()}
    static = catalogs.SOURCE / "server" / "static"
    missed: list[str] = []
    for path in sorted(static.glob("*.js")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip().startswith("//"):
                continue
            for match in CALL.finditer(line):
                if match.group(1).replace('\\"', '"') not in found:
                    missed.append(f"{path.name}:{lineno}: {line.strip()}")
    assert not missed, "message calls the extractor does not read:\n" + "\n".join(missed)
