// Where the history viewer stands: live, or a past position of the match drawn on the game's own
// board through a read-only session (`MatchSession.past`). The match page shows it over the board;
// the history panel moves it.
import { MatchSession } from "@tabletop/client";
import { historyAt } from "./hosting.js";

type Logged = { type: string; index?: number | null };
export type AnySession = MatchSession<unknown, Logged, { type: string }>;

export class HistoryCursor {
  /** The number of actions shown, or null for live. */
  at = $state<number | null>(null);
  /** The past position as a read-only session, or null while live (or before it arrives). */
  past = $state.raw<AnySession | null>(null);
  failure = $state("");
  /** True while a finished match plays as a replay. */
  playing = $state(false);
  readonly #live: AnySession;
  readonly #baseUrl: string;
  /** Numbers each request: only the newest answer is shown (steps may be quicker than the server). */
  #asked = 0;

  constructor(live: AnySession, baseUrl: string) {
    this.#live = live;
    this.#baseUrl = baseUrl;
  }

  /** The live session's number of actions: the last position there is. */
  get head(): number {
    return this.#live.index;
  }

  /** The first position there is (a forked or migrated match starts its history later). */
  get base(): number {
    return (this.#live.match as { replay_base?: number } | null)?.replay_base ?? 0;
  }

  /** The number of actions of the position on the board: `at` once its answer is in; null while live. */
  get shown(): number | null {
    return this.at === null ? null : (this.past?.index ?? this.at);
  }

  /** The action that led to the position on the board (its log entry); null at the start or while live. */
  get entry(): Logged | null {
    return this.at === null ? null : (this.past?.log.at(-1) ?? null);
  }

  /** Shows the position after the first `index` actions (kept within the history there is). */
  async show(index: number): Promise<void> {
    const target = Math.max(this.base, Math.min(this.head, index));
    const asked = ++this.#asked;
    this.at = target;
    try {
      const answer = await historyAt(this.#baseUrl, this.#live.matchId, target, this.#live.seat?.token ?? null);
      if (asked !== this.#asked) return;
      this.past = MatchSession.past(this.#live, answer);
      this.failure = "";
    } catch (caught) {
      if (asked === this.#asked) this.failure = caught instanceof Error ? caught.message : String(caught);
    }
  }

  step(by: number): void {
    void this.show((this.at ?? this.head) + by);
  }

  /** Back to the live board. */
  live(): void {
    this.#asked++;
    this.at = null;
    this.past = null;
    this.playing = false;
    this.failure = "";
  }
}
