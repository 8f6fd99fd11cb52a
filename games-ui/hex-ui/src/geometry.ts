// Where a Hex board's cells go on screen: pointy-topped hexes, row r shifted half a cell right of r - 1.

/** A cell's name as OpenSpiel writes it: the column's letter and the row's number from 1 ("c3"). */
export function cellName(q: number, r: number): string {
  return `${String.fromCharCode(97 + q)}${r + 1}`;
}

export const SQRT3 = Math.sqrt(3);

/** The centre of cell (q, r) for hexes of circumradius `size`, with a margin for the edge bands. */
export function centre(q: number, r: number, size: number): { x: number; y: number } {
  return { x: size * SQRT3 * (q + r / 2) + size * 1.6, y: size * 1.5 * r + size * 1.8 };
}

/** The six corners of a pointy-topped hex around (x, y), as an SVG points attribute. */
export function corners(x: number, y: number, size: number): string {
  const points: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(x + size * Math.cos(angle)).toFixed(2)},${(y + size * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

/** The drawing's width and height for a cols x rows board. */
export function extent(cols: number, rows: number, size: number): { width: number; height: number } {
  return { width: size * SQRT3 * (cols + (rows - 1) / 2) + size * 3.2, height: size * 1.5 * (rows - 1) + size * 3.6 };
}

/** The cell an arrow key moves to from (q, r), or null at the board's edge. */
export function step(key: string, q: number, r: number, cols: number, rows: number): { q: number; r: number } | null {
  const moves: Record<string, [number, number]> = {
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
  };
  const move = moves[key];
  if (!move) return null;
  const next = { q: q + move[0], r: r + move[1] };
  return next.q >= 0 && next.q < cols && next.r >= 0 && next.r < rows ? next : null;
}
