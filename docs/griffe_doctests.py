"""A Griffe extension for the API reference (mkdocs.yml): doctest examples shown as code.

The docstrings hold ``>>>`` examples in their text, as doctest reads them. Markdown would
read those lines as quotes (``>``) and their ``[...][-1]`` as links; this fences each
example (its ``>>>`` and ``...`` lines and the expected output up to a blank line) as
``pycon``, so the reference shows them as the code they are. The sources are unchanged.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_examples(text: str) -> str:
    """Every run of doctest lines, with its output, in a ```` ```pycon ```` fence."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i].lstrip())
                i += 1
            out += [f"{indent}```pycon", *(f"{indent}{b}" for b in block), f"{indent}```"]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring Griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_examples(obj.docstring.value)
