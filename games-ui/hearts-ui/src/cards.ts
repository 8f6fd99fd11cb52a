// Hearts' card order (ace high) and keys; names, symbols and colours come from the kit.
import { cardName as kitCardName, isRedSuit, suitSymbol } from "@tabletop/client";
import type { Card, Rank } from "@tabletop/types/hearts";

export const RANKS: Rank[] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER: Card["suit"][] = ["clubs", "diamonds", "hearts", "spades"];

/** "queen of spades" */
export function cardName(card: Card): string {
  return kitCardName(card.rank, card.suit);
}

/** "Q♠" */
export function cardText(card: Card): string {
  return `${card.rank}${suitSymbol(card.suit)}`;
}

export function cardKey(card: Card): string {
  return `${card.rank}-${card.suit}`;
}

export function isRed(card: Card): boolean {
  return isRedSuit(card.suit);
}

export function byHand(a: Card, b: Card): number {
  return SUIT_ORDER.indexOf(a.suit) - SUIT_ORDER.indexOf(b.suit) || RANKS.indexOf(a.rank) - RANKS.indexOf(b.rank);
}
