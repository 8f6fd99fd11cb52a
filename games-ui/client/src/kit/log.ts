// Log lines from recorded actions: who acted, what it did in words, and whether the game did it.

/** One line of a match's log, as `LogEntry` renders it. */
export interface LogLine {
  /** The action's index in the match. */
  index: number;
  /** The seat that acted; null for the game's own actions (a deal, a reveal). */
  actor: string | null;
  /** What the action did, in words (the game UI's `describe`). */
  text: string;
  /** True for an action the game made (its `source` is "system", or it has no player). */
  system: boolean;
}

/** A recorded action as the log holds it (every game's action union has these fields). */
export interface LoggedAction {
  type: string;
  index?: number | null;
  player_id?: string | null;
  source?: string | null;
}

/** The log line of `action` at `position` in the log, its words from `describe`. */
export function logLine<A extends LoggedAction>(action: A, position: number, describe: (action: A) => string): LogLine {
  const actor = typeof action.player_id === "string" ? action.player_id : null;
  return {
    index: action.index ?? position,
    actor,
    text: describe(action),
    system: action.source === "system" || actor === null,
  };
}
