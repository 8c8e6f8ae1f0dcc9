"""``python -m unoengine.cli``: the same as the ``uno`` command."""

from __future__ import annotations

from unoengine.cli.main import main

if __name__ == "__main__":
    main()
