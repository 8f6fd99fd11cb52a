// Where a Backgammon step lands: White (the first seat) moves from point 1 towards 24 and bears
// off past it; Black moves from 24 towards 1 and bears off below it. `null` is the bar (as an
// origin) or off the board (as a target).

/** The point a checker of `seat` reaches from `point` (null: the bar) with `die`; null if borne off. */
export function target(seat: number, point: number | null, die: number): number | null {
  if (seat === 0) {
    const to = (point ?? 0) + die;
    return to > 24 ? null : to;
  }
  const to = (point ?? 25) - die;
  return to < 1 ? null : to;
}

/** The board's two rows as the table draws them: 13..24 on top, 12..1 below. */
export const TOP_ROW = Array.from({ length: 12 }, (_, i) => 13 + i);
export const BOTTOM_ROW = Array.from({ length: 12 }, (_, i) => 12 - i);

export const COLORS = ["white", "black"] as const;

/** "2 white checkers", "1 black checker", "empty". */
export function checkers(count: number, color: string): string {
  if (count === 0) return "empty";
  return `${count} ${color} checker${count === 1 ? "" : "s"}`;
}
