// The Hex UI: the rhombus of hexes as SVG; each cell a focusable control named like "c3".
import { defineGameUi } from "@tabletop/client";
import type { HexAction, HexActionRequest, HexView } from "@tabletop/types/hex";
import Board from "./Board.svelte";
import { cellName } from "./geometry.js";

export const hexUi = defineGameUi<HexView, HexAction, HexActionRequest>({
  game: "hex",
  component: Board,
  describe(action, names) {
    return `${names(action.player_id)} placed a stone on ${cellName(action.cell.q, action.cell.r)}`;
  },
});
