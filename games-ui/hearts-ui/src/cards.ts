// Card names, symbols and order for Hearts (ace high).
import type { Card, Rank } from "@tabletop/types/hearts";

export const RANKS: Rank[] = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER: Card["suit"][] = ["clubs", "diamonds", "hearts", "spades"];
const SYMBOLS: { [suit in Card["suit"]]: string } = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };
const RANK_NAMES: { [rank in Rank]: string } = {
  A: "ace",
  "2": "two",
  "3": "three",
  "4": "four",
  "5": "five",
  "6": "six",
  "7": "seven",
  "8": "eight",
  "9": "nine",
  "10": "ten",
  J: "jack",
  Q: "queen",
  K: "king",
};

/** "queen of spades" */
export function cardName(card: Card): string {
  return `${RANK_NAMES[card.rank]} of ${card.suit}`;
}

/** "Q♠" */
export function cardText(card: Card): string {
  return `${card.rank}${SYMBOLS[card.suit]}`;
}

export function cardKey(card: Card): string {
  return `${card.rank}-${card.suit}`;
}

export function isRed(card: Card): boolean {
  return card.suit === "hearts" || card.suit === "diamonds";
}

export function byHand(a: Card, b: Card): number {
  return SUIT_ORDER.indexOf(a.suit) - SUIT_ORDER.indexOf(b.suit) || RANKS.indexOf(a.rank) - RANKS.indexOf(b.rank);
}
