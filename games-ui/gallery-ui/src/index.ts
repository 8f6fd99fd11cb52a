// The Gallery UI: your hand and money, the painting on the block with its auction, the live bids,
// and the artists' values round by round.
import { defineGameUi } from "@tabletop/client";
import type {
  AddPainting,
  Bid,
  Buy,
  Deal,
  Decline,
  GalleryActionRequest,
  GalleryGameStatePlayerView,
  GalleryGameStateSpectatorView,
  Pass,
  PlayPainting,
  RevealBids,
  ScoreRound,
  SealBidActionView,
  Sell,
  SetPrice,
} from "@tabletop/types/gallery";
import { KIND_NAMES, lotText, paintingText } from "./paintings.js";
import Table from "./Table.svelte";

/** What a seat or a spectator sees of the table. */
export type GalleryView = GalleryGameStatePlayerView | GalleryGameStateSpectatorView;
/** An action as the log shows it to this seat (another seat's sealed bid is redacted until the reveal). */
export type GalleryLogAction =
  | AddPainting
  | Bid
  | Buy
  | Deal
  | Decline
  | Pass
  | PlayPainting
  | RevealBids
  | ScoreRound
  | SealBidActionView
  | Sell
  | SetPrice;

function describe(action: GalleryLogAction, names: (playerId: string | null | undefined) => string): string {
  const who = names(action.player_id);
  switch (action.type) {
    case "Deal": {
      const meta = action.metadata;
      if (!meta) return "A round started";
      return meta.cards_each
        ? `Round ${meta.round} started: each player was dealt ${meta.cards_each} paintings`
        : `Round ${meta.round} started: no paintings are dealt`;
    }
    case "PlayPainting": {
      const meta = action.metadata;
      if (!meta) return `${who} put up a painting`;
      const ends = meta.ends_round ? `: the fifth ${meta.painting.artist}, the round ends` : "";
      return `${who} put up ${paintingText(meta.painting)}${ends}`;
    }
    case "AddPainting": {
      const meta = action.metadata;
      if (!meta) return `${who} added a painting to the double`;
      const ends = meta.ends_round ? `: the fifth ${meta.painting.artist}, the round ends` : "";
      return `${who} added ${paintingText(meta.painting)} to the double${ends}`;
    }
    case "Decline":
      return `${who} added no painting to the double`;
    case "Bid":
      return `${who} bid ${action.amount}`;
    case "Pass":
      return `${who} passed`;
    case "SealBid":
      return action.amount == null ? `${who} sealed a bid` : `${who} sealed a bid of ${action.amount}`;
    case "RevealBids": {
      const meta = action.metadata;
      if (!meta) return "The sealed bids were revealed";
      const bids = Object.entries(meta.bids)
        .map(([id, amount]) => `${names(id)} ${amount ?? "?"}`)
        .join(", ");
      return `Sealed bids revealed: ${bids}`;
    }
    case "SetPrice":
      return `${who} set the price at ${action.price}`;
    case "Buy":
      return `${who} takes it at the price`;
    case "Sell": {
      const meta = action.metadata;
      if (!meta) return `${names(action.buyer_id)} got the lot`;
      const lot = lotText(meta.paintings);
      const how = KIND_NAMES[meta.kind];
      if (meta.price === 0) return `${names(meta.buyer_id)} took ${lot} for free (${how})`;
      if (meta.paid_to_bank) return `${names(meta.buyer_id)} bought their own ${lot} for ${meta.price}, paid to the bank (${how})`;
      return `${names(meta.buyer_id)} bought ${lot} for ${meta.price} from ${names(meta.seller_id)} (${how})`;
    }
    case "ScoreRound": {
      const meta = action.metadata;
      if (!meta) return "The round was scored";
      const ranked = meta.ranking.map((artist) => `${artist} +${meta.awarded[artist] ?? 0}`).join(", ");
      const paid = Object.entries(meta.payouts)
        .map(([id, amount]) => `${names(id)} ${amount ?? 0}`)
        .join(", ");
      return `Round ${meta.round} scored: ${ranked || "no artist played"}; the bank paid ${paid}`;
    }
  }
}

export const galleryUi = defineGameUi<GalleryView, GalleryLogAction, GalleryActionRequest>({
  game: "gallery",
  component: Table,
  describe,
});
