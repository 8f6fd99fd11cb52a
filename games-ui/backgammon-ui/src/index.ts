// The Backgammon UI: the 24 points, the bar, the borne-off trays and the dice; pick a checker and
// its legal destinations light up.
import { defineGameUi } from "@tabletop/client";
import type { BackgammonAction, BackgammonActionRequest, BackgammonView } from "@tabletop/types/backgammon";
import Table from "./Table.svelte";

export const backgammonUi = defineGameUi<BackgammonView, BackgammonAction, BackgammonActionRequest>({
  game: "backgammon",
  component: Table,
  describe(action, names) {
    if (action.type === "RollDice") {
      const meta = action.metadata;
      if (!meta) return "The dice were rolled";
      return `${names(meta.mover)} rolled ${meta.dice.join("-")}${meta.opening ? " (opening roll)" : ""}`;
    }
    const who = names(action.player_id);
    if (action.type === "Pass") return `${who} could not move`;
    const from = action.point === null || action.point === undefined ? "the bar" : `point ${action.point}`;
    const meta = action.metadata;
    const to = meta ? (meta.to === null || meta.to === undefined ? "off" : `point ${meta.to}`) : "?";
    return `${who} moved ${from} → ${to} with a ${action.die}${meta?.hit ? ", hitting" : ""}`;
  },
});
