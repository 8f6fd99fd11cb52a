"""``python -m tabletop._scaffold NAME``: print a game's folder name (``Dice Duel`` -> ``dice-duel``).

The Makefile's ``new-game`` target uses it to name the game it just generated.
"""

import sys

from tabletop._scaffold._names import GameNames, ScaffoldError

if __name__ == "__main__":
    try:
        print(GameNames.parse(" ".join(sys.argv[1:])).kebab)
    except ScaffoldError as error:
        print(f"tabletop: {error}", file=sys.stderr)
        sys.exit(2)
