"""Constants and card rules Hearts' models share (``tabletop_hearts.components.cards``)."""
