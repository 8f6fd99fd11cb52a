// A board's cells: names as players say them ("a1") and arrow-key moves between them.

/** A cell's position: `x` the column from the left, `y` the row from the top, both 0-based. */
export interface Cell {
  x: number;
  y: number;
}

/** A column's letters: 0 → "a", 25 → "z", 26 → "aa". */
export function columnName(x: number): string {
  let name = "";
  let n = Math.trunc(x) + 1;
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(97 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** A cell's name: its column's letters and its row's number from the top ({x: 0, y: 0} → "a1"). */
export function cellName(cell: Cell): string {
  return `${columnName(cell.x)}${cell.y + 1}`;
}

/**
 * Where a key moves the focus from `cell` on a `columns` × `rows` board: the arrows by one cell
 * (stopping at the edges), Home and End to the row's ends, PageUp and PageDown to the column's
 * ends (with Ctrl, Home and End go to the board's corners); null for any other key.
 */
export function moveCell(cell: Cell, key: string, columns: number, rows: number, ctrl = false): Cell | null {
  const clampX = (x: number) => Math.max(0, Math.min(columns - 1, x));
  const clampY = (y: number) => Math.max(0, Math.min(rows - 1, y));
  switch (key) {
    case "ArrowLeft":
      return { x: clampX(cell.x - 1), y: cell.y };
    case "ArrowRight":
      return { x: clampX(cell.x + 1), y: cell.y };
    case "ArrowUp":
      return { x: cell.x, y: clampY(cell.y - 1) };
    case "ArrowDown":
      return { x: cell.x, y: clampY(cell.y + 1) };
    case "Home":
      return ctrl ? { x: 0, y: 0 } : { x: 0, y: cell.y };
    case "End":
      return ctrl ? { x: columns - 1, y: rows - 1 } : { x: columns - 1, y: cell.y };
    case "PageUp":
      return { x: cell.x, y: 0 };
    case "PageDown":
      return { x: cell.x, y: rows - 1 };
    default:
      return null;
  }
}
