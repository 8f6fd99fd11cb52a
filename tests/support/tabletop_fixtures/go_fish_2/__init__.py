"""A frozen copy of Go Fish 2.0.0, the version before each book recorded its turn (3.0.0).

The code is the shipped game's as it was at 2.0.0, with only its imports renamed: the
end-to-end upgrade test runs a server on it, stores matches in progress, and restarts the
server on the installed Go Fish. Never change it: it is what a 2.0.0 host ran.
"""

from tabletop_fixtures.go_fish_2.definition.game import definition

__all__ = ["definition"]
