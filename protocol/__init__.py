"""UEI, the bot protocol (docs/protocol.md): both sides, the conformance checker, the audit of
what a seat is told.

- `protocol.client.Engine` — start an external bot and play through it (the arena, GUIs)
- `protocol.server.serve_stdio(policy)` — make a `protocol.policy.Policy` a protocol bot
- `protocol.conformance.run_checks` — `expeditions protocol-check`
- `protocol.integrity.seat_audit` — no line to a seat names a card it has not seen (every
  edition with a reference model, `board` included)
- `protocol.messages` — the grammar of lines; `protocol.errors` — the client's typed errors
"""
