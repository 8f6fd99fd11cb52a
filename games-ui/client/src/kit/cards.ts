// Words for playing cards and dice: what a screen reader says for a card or a die.

/** A card's suit as the games' schemas spell it. */
export type Suit = "clubs" | "diamonds" | "hearts" | "spades";

const RANK_WORDS: { [rank: string]: string } = {
  A: "ace",
  "1": "ace",
  J: "jack",
  Q: "queen",
  K: "king",
  "2": "two",
  "3": "three",
  "4": "four",
  "5": "five",
  "6": "six",
  "7": "seven",
  "8": "eight",
  "9": "nine",
  "10": "ten",
};

const SUIT_SYMBOLS: { [suit in Suit]: string } = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };

/** A rank in words ("Q" → "queen", "10" → "ten"); other ranks are returned as they are. */
export function rankName(rank: string | number): string {
  const key = String(rank);
  return RANK_WORDS[key] ?? key;
}

/** A card's accessible name: "queen of spades"; a card without a suit is its rank ("seven"). */
export function cardName(rank: string | number, suit?: Suit | null): string {
  return suit ? `${rankName(rank)} of ${suit}` : rankName(rank);
}

/** The symbol of a suit ("spades" → "♠"). */
export function suitSymbol(suit: Suit): string {
  return SUIT_SYMBOLS[suit];
}

/** True for the red suits (hearts and diamonds). */
export function isRedSuit(suit: Suit | null | undefined): boolean {
  return suit === "hearts" || suit === "diamonds";
}

/** The pips of a die face on a 3×3 grid (row-major cell numbers); none for a face outside 1–6. */
export function diePips(face: number | null | undefined): number[] {
  switch (face) {
    case 1:
      return [4];
    case 2:
      return [0, 8];
    case 3:
      return [0, 4, 8];
    case 4:
      return [0, 2, 6, 8];
    case 5:
      return [0, 2, 4, 6, 8];
    case 6:
      return [0, 2, 3, 5, 6, 8];
    default:
      return [];
  }
}

/** A die's accessible name: "die showing 4", or "die not rolled yet". */
export function dieName(face: number | null | undefined): string {
  return face == null || diePips(face).length === 0 ? "die not rolled yet" : `die showing ${face}`;
}
