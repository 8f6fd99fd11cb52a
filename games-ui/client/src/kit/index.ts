// The UI kit: the pieces game UIs compose (docs/how-to/game-ui.md).
export { cardName, diePips, dieName, isRedSuit, rankName, suitSymbol, type Suit } from "./cards.js";
export { contrastRatio, initials, luminance, SEAT_COLOURS, seatColour } from "./colours.js";
export { keepFocusIn } from "./focus.js";
export { cellName, columnName, moveCell, type Cell } from "./grid.js";
export { logLine, type LoggedAction, type LogLine } from "./log.js";
export { turnText, type TurnFacts } from "./turn.js";
export { default as Avatar } from "./Avatar.svelte";
export { default as BoardGrid } from "./BoardGrid.svelte";
export { default as Die } from "./Die.svelte";
export { default as LogEntry } from "./LogEntry.svelte";
export { default as PlayerList } from "./PlayerList.svelte";
export { default as PlayingCard } from "./PlayingCard.svelte";
export { default as TurnBanner } from "./TurnBanner.svelte";
