"""Hearts's declarations: machine states, action types, handlers, the definition."""
