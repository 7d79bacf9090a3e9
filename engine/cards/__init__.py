"""The Lost Cities card games: `classic`, `partners` and `expedition`, one family of files.

- `rules.pxd/.pyx`: the C state, the rules of the three editions and their GameOps tables;
- `notation.pxd/.pyx`: cards, decisions, positions and views as text (docs/notation.md);
- `state.pyx`: `CardState`, the Python face of a position;
- `edition.py`: the three records; `audit.py`: the seat auditor;
- `reference/`: the independent pure-Python model the engine is tested against.

>>> import engine
>>> engine.get_edition("partners").state_type.__module__
'engine.cards.state'
"""
