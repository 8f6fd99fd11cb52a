// The sample game's UI: the shared total, each player's score, and the amounts you may add.
import { defineGameUi } from "@tabletop/client";
import type { SampleAction, SampleActionRequest, SampleGameStateView } from "@tabletop/types/sample";
import Table from "./Table.svelte";

export const sampleUi = defineGameUi<SampleGameStateView, SampleAction, SampleActionRequest>({
  game: "sample",
  component: Table,
  describe(action, names) {
    if (action.type === "Pass") return `${names(action.player_id)} passed`;
    const meta = action.metadata;
    return `${names(action.player_id)} added ${action.amount}${meta ? ` (total ${meta.prior_total} → ${meta.new_total})` : ""}`;
  },
});
