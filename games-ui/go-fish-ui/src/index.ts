// The Go Fish UI: your hand, the other players' hand sizes and books, and the asks you may make.
import { defineGameUi } from "@tabletop/client";
import type {
  Ask,
  DealCardActionView,
  DrawCardActionView,
  GoFishActionRequest,
  GoFishGameStatePlayerView,
  GoFishGameStateSpectatorView,
} from "@tabletop/types/go-fish";
import { cardText, plural } from "./cards.js";
import Table from "./Table.svelte";

/** What a seat or a spectator sees of the table. */
export type GoFishView = GoFishGameStatePlayerView | GoFishGameStateSpectatorView;
/** An action as the log shows it to this seat (a card dealt to or drawn by another seat is redacted). */
export type GoFishLogAction = Ask | DealCardActionView | DrawCardActionView;

export const goFishUi = defineGameUi<GoFishView, GoFishLogAction, GoFishActionRequest>({
  game: "go-fish",
  component: Table,
  describe(action, names) {
    if (action.type === "Ask") {
      const asked = `${names(action.player_id)} asked ${names(action.target_player_id)} for ${plural(action.rank)}`;
      const meta = action.metadata;
      if (!meta) return asked;
      const got = meta.go_fish ? ": go fish!" : `: got ${meta.received?.map(cardText).join(" ") ?? "nothing"}`;
      return `${asked}${got}${meta.book ? `, and made a book of ${plural(meta.book)}` : ""}`;
    }
    if (action.type === "DealCard") {
      return `${names(action.to)} was dealt ${action.outcome ? cardText(action.outcome) : "a card"}`;
    }
    const meta = action.metadata;
    const what = action.outcome ? cardText(action.outcome) : "a card";
    const caught = meta?.caught && action.fishing_for ? ` and caught the ${action.fishing_for} they fished for` : "";
    const book = meta?.book ? `, making a book of ${plural(meta.book)}` : "";
    return `${names(action.player_id)} drew ${what}${caught}${book}`;
  },
});
