// The Hearts UI: the starter table (every legal action as a button). Draw your game here.
import { defineGameUi } from "@tabletop/client";
import type { HeartsAction, HeartsActionRequest, HeartsView } from "@tabletop/types/hearts";
import Table from "./Table.svelte";

export const heartsUi = defineGameUi<HeartsView, HeartsAction, HeartsActionRequest>({
  game: "hearts",
  component: Table,
  describe(action, names) {
    const who = "player_id" in action ? names(action.player_id) : "The game";
    return `${who}: ${action.type}`;
  },
});
