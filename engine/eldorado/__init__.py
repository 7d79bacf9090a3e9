"""The Quest for El Dorado (`eldorado`, 2-4 players), one family of files (docs/eldorado.md).

- `components.py`: the cards, cave tokens, blockades and the four routes' maps, read from
  `data/eldorado.json`;
- `rules.pxd/.pyx`: the C state, the rules and the GameOps table;
- `state.pyx`: `EldoradoState`, the Python face of a position, with its notation;
- `picture.py`: the text picture (`pretty`) and a PNG of the map;
- `edition.py`: the record; `audit.py`: the seat auditor;
- `reference.py`: the independent pure-Python model the engine is tested against.

>>> import engine
>>> engine.get_edition("eldorado").state_type.__module__
'engine.eldorado.state'
"""
