// Seat colours and avatars: a colour per seat that white initials read on at 4.5:1 or more, and
// the initials of a seat's name.

/** Seat colours, by seat position; each carries white text at a contrast of at least 4.5:1. */
export const SEAT_COLOURS: readonly string[] = ["#1d4ed8", "#b91c1c", "#15803d", "#7e22ce", "#c2410c", "#0f766e", "#be185d", "#4d7c0f"];

/** The colour of the seat at `position` (0-based), cycling through `SEAT_COLOURS`. */
export function seatColour(position: number): string {
  const count = SEAT_COLOURS.length;
  return SEAT_COLOURS[((Math.trunc(position) % count) + count) % count] ?? "#1d4ed8";
}

/** Up to two initials of a name ("Ada Lovelace" → "AL", "bot 2" → "B2", "p1" → "P1"). */
export function initials(name: string): string {
  const words = name.trim().split(/[\s_\-.]+/u).filter(Boolean);
  if (words.length === 0) return "?";
  if (words.length === 1) {
    const word = [...(words[0] ?? "")];
    const digits = word.slice(1).filter((char) => /\d/u.test(char));
    return ((word[0] ?? "?") + (digits.length ? digits.join("").slice(0, 1) : (word[1] ?? ""))).toUpperCase();
  }
  return words
    .slice(0, 2)
    .map((word) => [...word][0] ?? "")
    .join("")
    .toUpperCase();
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** The relative luminance (WCAG 2) of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/iu.exec(hex);
  if (!match) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [match[1], match[2], match[3]].map((part) => channel(parseInt(part ?? "0", 16)));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** The WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}
