"""`expeditions serve`: the browser GUI (play, watch, replay) on top of the engine, the protocol
client and the arena's results database. See docs/gui.md.

Needs the optional web stack (`pip install 'expeditions[gui]'`: Starlette, uvicorn, websockets).
"""
