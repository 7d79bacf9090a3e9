"""Lost Cities: The Board Game (`board`, 2-4 players), one family of files.

- `rules.pxd/.pyx`: the C state, the rules and the GameOps table, with the board data
  `data/board.json` read at import;
- `state.pyx`: `BoardState`, the Python face of a position, with its notation (docs/board.md);
- `edition.py`: the record; `audit.py`: the seat auditor;
- `reference.py`: the independent pure-Python model the engine is tested against.

>>> import engine
>>> engine.get_edition("board").state_type.__module__
'engine.board.state'
"""
