"""Constants Goofspiel's models share (cards: ``tabletop_goofspiel.components.cards``)."""
