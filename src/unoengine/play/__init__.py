"""Orchestration over the rules core: the headless :class:`Table`, simulations.

Everything that runs a game (``uno simulate``, ``uno play``, the server,
tournaments) runs it on a :class:`~unoengine.play.table.Table`: the state, its
version, the record, one controller per seat and the reaction policy of the
out-of-turn windows are written once, here.
"""

from __future__ import annotations

from unoengine.play.table import StaleVersionError, Table, TableStep, reaction_order

__all__ = ["StaleVersionError", "Table", "TableStep", "reaction_order"]
