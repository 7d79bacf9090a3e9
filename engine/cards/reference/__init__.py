"""The pure-Python reference model of the card games ``classic``, ``partners`` and ``expedition``
(RULES.md sections 1-3 and docs/notation.md), independent of the compiled engine it checks.

``game.BaseGame`` holds the rules of the two-seat editions; ``partners.Game`` overrides the places
where partnerships differ; ``facts`` holds each edition's cards and their texts.

>>> from engine.cards.reference import classic, partners
>>> classic.Game.new(1).to_move, len(partners.Game.new(2).hands)
(0, 4)
"""
