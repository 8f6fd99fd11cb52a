// Words for Gallery's paintings, auction kinds and sums, shared by the table and the log.
import type { Artist, AuctionKind, Painting } from "@tabletop/types/gallery";

export const ARTISTS: Artist[] = ["Amaro", "Bexley", "Corvo", "Dahl", "Esra"];

export const KIND_NAMES: Record<AuctionKind, string> = {
  open: "open",
  "once-around": "once around",
  sealed: "sealed",
  "fixed-price": "fixed price",
  double: "double",
};

export function paintingText(painting: Painting): string {
  return `${painting.artist} (${KIND_NAMES[painting.kind]})`;
}

export function lotText(paintings: Painting[]): string {
  const first = paintings[0];
  if (!first) return "nothing";
  return paintings.length > 1 ? `two ${first.artist} paintings` : first.artist;
}
