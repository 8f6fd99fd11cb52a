// What a game UI project exports: a component the app mounts with the session, and a sentence
// per recorded action for the log (from the action's metadata).
import type { Component } from "svelte";
import type { MatchSession } from "./session.svelte.js";

export interface GameUiProps<View, Action extends { type: string; index?: number | null }, Request extends { type: string }> {
  session: MatchSession<View, Action, Request>;
}

export interface GameUi<View, Action extends { type: string; index?: number | null }, Request extends { type: string }> {
  /** The game's name (`GET /api/games`). */
  game: string;
  /** The table: board, the seat's private info, whose turn it is, the legal moves, the result. */
  component: Component<GameUiProps<View, Action, Request>>;
  /** What an action did, in words, for the log (`names` maps player ids to seat names). */
  describe(action: Action, names: (playerId: string | null | undefined) => string): string;
}

/** A game UI with its types erased, as the app's registry holds it. */
export interface AnyGameUi {
  game: string;
  component: Component<{ session: MatchSession<unknown, { type: string; index?: number | null }, { type: string }> }>;
  describe(action: { type: string; index?: number | null }, names: (playerId: string | null | undefined) => string): string;
}

/**
 * Declares a game UI. The app hands each UI the session of a match of that UI's game, so the
 * erased types are restored exactly where they were erased.
 */
export function defineGameUi<View, Action extends { type: string; index?: number | null }, Request extends { type: string }>(
  ui: GameUi<View, Action, Request>,
): AnyGameUi {
  return ui as unknown as AnyGameUi;
}
