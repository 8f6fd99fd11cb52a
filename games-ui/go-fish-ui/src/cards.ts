// Card words and symbols for Go Fish.
import type { Card, Rank } from "@tabletop/types/go-fish";

export const RANKS: Rank[] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

const SUITS: { [suit in Card["suit"]]: string } = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };

export function suitSymbol(card: Card): string {
  return SUITS[card.suit];
}

export function cardText(card: Card): string {
  return `${card.rank}${SUITS[card.suit]}`;
}

export function isRed(card: Card): boolean {
  return card.suit === "hearts" || card.suit === "diamonds";
}

export function byRank(a: Card, b: Card): number {
  return RANKS.indexOf(a.rank) - RANKS.indexOf(b.rank) || a.suit.localeCompare(b.suit);
}

export function plural(rank: Rank): string {
  return rank === "6" ? "6es" : `${rank}s`;
}
