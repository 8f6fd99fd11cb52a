// The Goofspiel UI: the prize up for bidding, your cards to bid with, the sealed bids and the rounds.
import { defineGameUi } from "@tabletop/client";
import type {
  BidActionView,
  GoofspielActionRequest,
  GoofspielGameStatePlayerView,
  GoofspielGameStateSpectatorView,
  Reveal,
  RevealPrize,
} from "@tabletop/types/goofspiel";
import Table from "./Table.svelte";

export type GoofspielView = GoofspielGameStatePlayerView | GoofspielGameStateSpectatorView;
/** An action as the log shows it to this seat (another seat's sealed card is redacted until the reveal). */
export type GoofspielLogAction = BidActionView | Reveal | RevealPrize;

export const goofspielUi = defineGameUi<GoofspielView, GoofspielLogAction, GoofspielActionRequest>({
  game: "goofspiel",
  component: Table,
  describe(action, names) {
    if (action.type === "Bid") {
      const card = action.card == null ? "a sealed card" : `the ${action.card}`;
      const prize = action.metadata ? ` for the prize ${action.metadata.prize}` : "";
      return `${names(action.player_id)} bid ${card}${prize}`;
    }
    if (action.type === "RevealPrize") {
      // The prize is the chance point's outcome, decided by the game when the round starts.
      return `The prize ${action.outcome ?? "?"} came up`;
    }
    const meta = action.metadata;
    if (!meta) return "The bids were revealed";
    const bids = Object.entries(meta.bids)
      .map(([id, card]) => `${names(id)} ${card ?? "?"}`)
      .join(", ");
    const outcome = meta.winner_id ? `${names(meta.winner_id)} took ${meta.prize} points` : `a tie: the ${meta.prize} is discarded`;
    return `Round ${meta.round} revealed (${bids}): ${outcome}`;
  },
});
