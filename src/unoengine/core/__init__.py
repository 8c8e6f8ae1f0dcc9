"""The rules core: pure, deterministic, no I/O (see :mod:`unoengine`)."""
