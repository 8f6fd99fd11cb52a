"""The sample game's state handlers: one module per machine state."""
