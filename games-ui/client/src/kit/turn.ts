// The turn banner's sentence: whose turn it is, or the result, named.

/** What the banner reads off a view. */
export interface TurnFacts {
  /** The seats to act now. */
  active: readonly string[];
  /** The result once the game is over ("win", "draw", "abandoned"), else null. */
  result: string | null | undefined;
  /** The winners of a won game. */
  winners: readonly string[];
  /** This page's seat; null for a spectator. */
  me: string | null;
  /** True when this seat has a move to make now. */
  canAct: boolean;
  /** A seat's name (`you` false: its own name even for this page's seat). */
  nameOf: (playerId: string, you?: boolean) => string;
  /** A short hint of what to do when it is this seat's turn. */
  hint?: string;
}

function list(names: readonly string[]): string {
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1) ?? ""}`;
}

/** The banner's sentence: "Your turn. Roll or hold.", "Waiting for Ada.", "Game over: Ada wins." */
export function turnText(facts: TurnFacts): string {
  const { active, result, winners, me, canAct, nameOf, hint = "" } = facts;
  if (result === "draw") return "Game over: a draw.";
  if (result === "abandoned") return "Game over: abandoned.";
  if (result === "win") {
    const names = list(winners.map((id) => nameOf(id, false)));
    if (me !== null && winners.includes(me)) return `Game over: you win! (${names})`;
    if (!names) return "Game over.";
    return `Game over: ${names} ${winners.length > 1 ? "win" : "wins"}.`;
  }
  if (result) return "Game over.";
  const others = active.filter((id) => id !== me);
  if (me !== null && canAct) {
    const also = others.length ? ` (${list(others.map((id) => nameOf(id)))} too)` : "";
    return `Your turn${also}.${hint ? ` ${hint}` : ""}`;
  }
  if (others.length === 0) return "Waiting…";
  return `Waiting for ${list(others.map((id) => nameOf(id)))}.`;
}
