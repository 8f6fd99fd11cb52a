"""Hearts's state handlers: one module per machine state."""
