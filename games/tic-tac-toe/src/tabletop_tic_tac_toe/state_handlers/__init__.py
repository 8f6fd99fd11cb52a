"""Tic-tac-toe's state handlers: one module per machine state."""
