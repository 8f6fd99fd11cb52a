"""Hearts's actions: one module per action, the model and its hydrated class."""
