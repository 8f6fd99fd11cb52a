"""Tic-tac-toe uses the framework's square board (``tabletop.boards``); it has no components of its own."""
