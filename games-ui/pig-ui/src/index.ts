// The Pig UI: the die, the turn total at risk, the banked scores, and Roll / Hold.
import { defineGameUi } from "@tabletop/client";
import type { PigAction, PigActionRequest, PigGameStateView } from "@tabletop/types/pig";
import Table from "./Table.svelte";

export const pigUi = defineGameUi<PigGameStateView, PigAction, PigActionRequest>({
  game: "pig",
  component: Table,
  describe(action, names) {
    const who = names(action.player_id);
    if (action.type === "Roll") return `${who} rolled`;
    if (action.type === "RollDie") {
      // The die's face is the chance point's outcome, decided by the game.
      const meta = action.metadata;
      if (!meta) return `the die came up ${action.outcome ?? "?"}`;
      return meta.busted ? `${who} rolled a 1 and lost the turn total` : `${who} rolled a ${action.outcome} (turn total ${meta.turn_total})`;
    }
    const meta = action.metadata;
    return meta ? `${who} held, banking ${meta.banked} (score ${meta.score})` : `${who} held`;
  },
});
