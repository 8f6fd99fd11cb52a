// The tic-tac-toe UI: a 3×3 board; only the squares the server lists as legal are clickable.
import { defineGameUi } from "@tabletop/client";
import type { TicTacToeAction, TicTacToeActionRequest, TicTacToeGameStateView } from "@tabletop/types/tic-tac-toe";
import Board from "./Board.svelte";

export const ticTacToeUi = defineGameUi<TicTacToeGameStateView, TicTacToeAction, TicTacToeActionRequest>({
  game: "tic-tac-toe",
  component: Board,
  describe(action, names) {
    const { x, y } = action.square;
    return `${names(action.player_id)} marked ${"abc"[x] ?? x}${y + 1}`;
  },
});
