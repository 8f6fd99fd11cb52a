// The Backgammon UI: the starter table (every legal action as a button). Draw your game here.
import { defineGameUi } from "@tabletop/client";
import type { BackgammonAction, BackgammonActionRequest, BackgammonView } from "@tabletop/types/backgammon";
import Table from "./Table.svelte";

export const backgammonUi = defineGameUi<BackgammonView, BackgammonAction, BackgammonActionRequest>({
  game: "backgammon",
  component: Table,
  describe(action, names) {
    const who = "player_id" in action ? names(action.player_id) : "The game";
    return `${who}: ${action.type}`;
  },
});
