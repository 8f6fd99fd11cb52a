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
  /**
   * What one of the game's own actions did, in words, for the log (`names` maps player ids to
   * seat names). The framework's actions (a seat's `TimeExpired`) are described by the client.
   */
  describe(action: GameActionOf<Action>, names: (playerId: string | null | undefined) => string): string;
}

/** A seat's loss on time: the framework's own action, in every game's log. */
export interface TimeExpiredAction {
  type: "TimeExpired";
  index?: number | null;
  player_id: string;
  metadata?: { result: string; winning_player_ids?: string[] } | null;
}

/** The game's own actions: its log without the framework's. */
export type GameActionOf<Action> = Exclude<Action, { type: "TimeExpired" }>;

/** True for the framework's own action (a seat's loss on time). */
export function isTimeExpired(action: { type: string }): action is TimeExpiredAction {
  return action.type === "TimeExpired";
}

/** "Ann ran out of time: Bob wins", for the log. */
export function describeTimeExpired(action: TimeExpiredAction, names: (playerId: string | null | undefined) => string): string {
  const winners = action.metadata?.winning_player_ids ?? [];
  const who = winners.map((id) => names(id)).join(" and ");
  if (!who) return `${names(action.player_id)} ran out of time`;
  return `${names(action.player_id)} ran out of time: ${who} ${winners.length > 1 ? "win" : "wins"}`;
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
  const describe = (action: Action, names: (playerId: string | null | undefined) => string): string =>
    isTimeExpired(action) ? describeTimeExpired(action, names) : ui.describe(action as GameActionOf<Action>, names);
  return { ...ui, describe } as unknown as AnyGameUi;
}
