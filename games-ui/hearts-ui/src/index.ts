// The Hearts UI: your hand, the three cards you pass, the trick on the table, points and totals.
import { defineGameUi } from "@tabletop/client";
import type {
  DealCardActionView,
  ExchangePasses,
  HeartsActionRequest,
  HeartsGameStatePlayerView,
  HeartsGameStateSpectatorView,
  PassCardsActionView,
  PlayCard,
} from "@tabletop/types/hearts";
import { cardName } from "./cards.js";
import Table from "./Table.svelte";

/** What a seat or a spectator sees of the table. */
export type HeartsView = HeartsGameStatePlayerView | HeartsGameStateSpectatorView;
/** An action as the log shows it to this seat (others' dealt and passed cards are redacted). */
export type HeartsLogAction = DealCardActionView | ExchangePasses | PassCardsActionView | PlayCard;

export const heartsUi = defineGameUi<HeartsView, HeartsLogAction, HeartsActionRequest>({
  game: "hearts",
  component: Table,
  describe(action, names) {
    switch (action.type) {
      case "DealCard":
        return action.outcome ? `${names(action.to)} was dealt the ${cardName(action.outcome)}` : `A card was dealt to ${names(action.to)}`;
      case "PassCards":
        return action.cards ? `${names(action.player_id)} passed the ${action.cards.map(cardName).join(", the ")}` : `${names(action.player_id)} passed three cards`;
      case "ExchangePasses":
        return "The passed cards landed";
      case "PlayCard": {
        const played = `${names(action.player_id)} played the ${cardName(action.card)}`;
        const trick = action.metadata?.trick;
        const taken = trick ? `; ${names(trick.winner_id)} took the trick (${trick.points} points)` : "";
        return `${played}${taken}`;
      }
    }
  },
});
