"""A broken bot: a correct minimal bot that accepts `go … searchmoves …` but does not listen to
it (it answers its first legal decision, whichever the searchmoves were)."""
import minimal

_parse_go = minimal.parse_go


def parse_go_ignoring_searchmoves(args: list[str]) -> dict[str, str]:
    return _parse_go(args[:args.index("searchmoves")] if "searchmoves" in args else args)


minimal.parse_go = parse_go_ignoring_searchmoves
minimal.serve("deaf")
