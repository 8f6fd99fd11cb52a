// The result of a match in words, naming the winners: for the match page, the announcer, the
// generic table and the lobby's "Your matches".

/** What a result sentence reads: the match's result and winners, and this page's seat. */
export interface ResultSource {
  result: string | null | undefined;
  winners: readonly string[];
  /** This browser's seat in the match; null for a spectator. */
  me: string | null;
  nameOf: (playerId: string) => string;
  /** The seat that lost on time, when the match ended that way (its log's last action). */
  lostOnTime?: string | null;
}

/**
 * "Game over: Ann wins.", "Game over: you win!", "Game over: a draw."; after a loss on time,
 * "Game over: Ann wins. Bob ran out of time."; null while the game runs.
 */
export function resultText(source: ResultSource): string | null {
  const text = gameOver(source);
  const { lostOnTime, me, nameOf } = source;
  if (text === null || !lostOnTime) return text;
  return `${text} ${lostOnTime === me ? "You" : nameOf(lostOnTime)} ran out of time.`;
}

function gameOver({ result, winners, me, nameOf }: ResultSource): string | null {
  if (!result) return null;
  if (result === "draw") return "Game over: a draw.";
  if (result === "abandoned") return "Game over: abandoned.";
  const names = winners.map(nameOf).join(" and ");
  if (me !== null && winners.includes(me)) return `Game over: you win!${names ? ` (${names})` : ""}`;
  if (!names) return "Game over.";
  return `Game over: ${names} ${winners.length > 1 ? "win" : "wins"}.`;
}
