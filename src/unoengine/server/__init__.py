"""``uno serve``: the browser game, an adapter over :class:`unoengine.play.table.Table` (docs/PROTOCOL.md).

``app`` (Starlette routes and the WebSocket endpoint), ``actor`` (one sequential
actor per table), ``protocol`` (message schemas and checks), ``store`` (SQLite and
in-memory event logs), ``auth`` (seat tokens, table codes, seed commitments) and
``static/`` (the browser client: plain ES modules, no build step).
"""
