// The Hex UI: the starter table (every legal action as a button). Draw your game here.
import { defineGameUi } from "@tabletop/client";
import type { HexAction, HexActionRequest, HexView } from "@tabletop/types/hex";
import Table from "./Table.svelte";

export const hexUi = defineGameUi<HexView, HexAction, HexActionRequest>({
  game: "hex",
  component: Table,
  describe(action, names) {
    const who = "player_id" in action ? names(action.player_id) : "The game";
    return `${who}: ${action.type}`;
  },
});
