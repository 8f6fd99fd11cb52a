// The game UIs the app can mount, by game name; any other installed game gets the generic table.
import type { AnyGameUi } from "@tabletop/client";
import { galleryUi } from "@tabletop/gallery-ui";
import { goFishUi } from "@tabletop/go-fish-ui";
import { goofspielUi } from "@tabletop/goofspiel-ui";
import { pigUi } from "@tabletop/pig-ui";
import { sampleUi } from "@tabletop/sample-ui";
import { ticTacToeUi } from "@tabletop/tic-tac-toe-ui";
import { hexUi } from "@tabletop/hex-ui";
import { backgammonUi } from "@tabletop/backgammon-ui";
import { heartsUi } from "@tabletop/hearts-ui";
import GenericTable from "./GenericTable.svelte";

const uis: AnyGameUi[] = [sampleUi, ticTacToeUi, goFishUi, goofspielUi, pigUi, galleryUi, hexUi, backgammonUi, heartsUi];
const byGame = new Map(uis.map((ui) => [ui.game, ui]));

export function uiFor(game: string): AnyGameUi {
  return (
    byGame.get(game) ?? {
      game,
      component: GenericTable,
      describe: (action, names) => `${names((action as { player_id?: string | null }).player_id)}: ${action.type}`,
    }
  );
}
