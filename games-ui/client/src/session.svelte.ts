// The session store the UIs derive from: one match seen from one seat (or as a spectator), kept
// current by the event stream. Svelte 5 runes: read the fields in a component and it re-renders.
import { newActionId, TabletopClient, type SubmitOptions } from "./api.js";
import { ApiError } from "./errors.js";
import type { ActionBody, ForkResponse, MatchInfo, MatchStatus, UpdateEvent, ViewResponse } from "./protocol.js";
import type { Seat } from "./seats.js";
import { MatchStream, type EventSourceFactory } from "./stream.js";

/** How long a move kept while offline waits before it is sent again (also sent on reconnect). */
const RETRY_MS = 3000;

/** An action as the log holds it: every recorded action has its index. */
interface Indexed {
  index?: number | null;
  type: string;
}

/** A legal action as the server lists it: a request body without its id. */
export type LegalOf<Request extends { type: string }> = Request extends unknown ? Omit<Request, "id"> : never;

export class MatchSession<View, Action extends Indexed, Request extends { type: string }> {
  readonly client: TabletopClient;
  readonly matchId: string;
  /** The seat played from this page; null for a spectator. */
  readonly seat: Seat | null;

  match = $state.raw<MatchInfo | null>(null);
  view = $state.raw<View | null>(null);
  /** The number of recorded actions (the next action's index). */
  index = $state(0);
  checksum = $state(0);
  status = $state<MatchStatus>("in_progress");
  validActionTypes = $state.raw<string[]>([]);
  legalActions = $state.raw<LegalOf<Request>[] | null>(null);
  canUndo = $state(false);
  /** The projected action log, in index order. */
  log = $state.raw<Action[]>([]);
  /** The last error of a call this session made (cleared by the next successful one). */
  error = $state.raw<ApiError | null>(null);
  connected = $state(false);
  busy = $state(false);
  loaded = $state(false);
  /** The bot seat whose next move is about to be shown (the "thinking…" beat); null otherwise. */
  thinking = $state<string | null>(null);
  /** The beat before each bot move is shown, in milliseconds (0: at once, the default). */
  paceMs = 0;
  /** True while a move made offline waits to be sent (with its action id: it is never applied twice). */
  queued = $state(false);

  #stream: MatchStream<View, LegalOf<Request>, Action> | null = null;
  #factory: EventSourceFactory | undefined;
  /** The move made while the server was unreachable, sent again (same id) when the stream is live. */
  #pending: { type: Request["type"]; body: unknown; options: SubmitOptions } | null = null;
  #retry: ReturnType<typeof setTimeout> | undefined;
  /** Updates waiting to be shown one at a time, each bot move after its beat. */
  #paced: UpdateEvent<View, LegalOf<Request>, Action>[] = [];
  #pacing = false;
  #stopped = false;
  #readOnly = false;

  constructor(client: TabletopClient, matchId: string, seat: Seat | null, factory?: EventSourceFactory) {
    this.client = client;
    this.matchId = matchId;
    this.seat = seat;
    this.#factory = factory;
  }

  get playerId(): string | null {
    return this.seat?.playerId ?? null;
  }

  get token(): string | null {
    return this.seat?.token ?? null;
  }

  /** The seat's display name (its name at the table, else its id); "you" for this page's seat. */
  nameOf(playerId: string | null | undefined, you = true): string {
    if (playerId == null) return "the game";
    if (you && playerId === this.playerId) return "you";
    const seat = this.match?.seats.find((candidate) => candidate.player_id === playerId);
    return seat?.name || playerId;
  }

  /** True when this seat may act now. */
  get myTurn(): boolean {
    return this.seat !== null && !this.#readOnly && this.status === "in_progress" && this.validActionTypes.length > 0;
  }

  /** True for a past position (`MatchSession.past`): shown, never played from. */
  get readOnly(): boolean {
    return this.#readOnly;
  }

  /** True when no move can be made now (`busy`, or `readOnly`): game UIs disable their move controls on it. */
  get locked(): boolean {
    return this.busy || this.#readOnly;
  }

  /**
   * A read-only copy of `live` after its first `at.index` actions, as its seat saw them (the history
   * route): no legal actions, no stream; `submit`, `play`, `undo` refuse without calling the server.
   */
  static past<View, Action extends Indexed, Request extends { type: string }>(
    live: MatchSession<View, Action, Request>,
    at: { index: number; head: number; view: View; actions: Action[] },
  ): MatchSession<View, Action, Request> {
    const past = new MatchSession<View, Action, Request>(live.client, live.matchId, live.seat);
    past.#readOnly = true;
    past.#stopped = true;
    past.match = live.match;
    past.view = at.view;
    past.index = at.index;
    past.log = at.actions;
    past.status = at.index < at.head ? "in_progress" : live.status;
    past.legalActions = [];
    past.loaded = true;
    return past;
  }

  /** Loads the match, the view and the log, then follows the event stream. */
  async start(): Promise<void> {
    if (this.#readOnly) return; // a past position follows no stream
    try {
      const [match, view, log] = await Promise.all([
        this.client.getMatch(this.matchId),
        this.client.view<View, LegalOf<Request>>(this.matchId, this.token),
        this.client.actions<Action>(this.matchId, this.token),
      ]);
      this.match = match;
      this.log = log.actions;
      this.#applyView(view, true);
      this.loaded = true;
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#stream = new MatchStream<View, LegalOf<Request>, Action>(
      this.client,
      this.matchId,
      this.token,
      {
        snapshot: (data) => this.#onSnapshot(data),
        update: (data) => this.#onUpdate(data),
        reset: (data) => this.#onReset(data),
        connection: (open) => {
          this.connected = open;
          if (open) void this.#sendPending();
        },
        ended: (error) => {
          this.connected = false;
          this.error = error; // the seat was lost: the banner says so, and the stream stays closed
        },
      },
      this.index > 0 ? this.index - 1 : null,
      this.#factory,
    );
    this.#stream.start();
  }

  stop(): void {
    this.#stopped = true;
    this.#paced = [];
    clearTimeout(this.#retry);
    this.#stream?.close();
    this.#stream = null;
    this.connected = false;
  }

  /** Submits an action of type `type` (its body typed from the game's request union). */
  async submit<T extends Request["type"]>(type: T, body: ActionBody<Request, T>, options: SubmitOptions = {}): Promise<boolean> {
    const seat = this.seat;
    if (this.#readOnly) return false; // a past position is never played from
    if (seat === null) {
      this.error = new ApiError(401, { code: "missing-token", message: "spectators cannot act", path: null });
      return false;
    }
    if (this.#pending) {
      this.error = new ApiError(0, { code: "move-queued", message: "your last move is still waiting to be sent", path: null });
      return false;
    }
    const keyed: SubmitOptions = { ...options, id: options.id ?? newActionId() };
    this.busy = true;
    try {
      const response = await this.client.submit<Request, T, View, LegalOf<Request>, Action>(this.matchId, seat, type, body, keyed);
      this.error = null;
      this.#appendActions(response.actions);
      this.#applyView(response, false);
      return true;
    } catch (error) {
      this.#fail(error);
      if (error instanceof ApiError && error.code === "network-error") {
        // Offline: keep the move (and its id) and send it when the stream is live again.
        this.#pending = { type, body, options: keyed };
        this.queued = true;
        this.#retryLater();
      }
      if (error instanceof ApiError && (error.status === 409 || error.status === 422 || error.status === 403)) await this.refresh();
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Tries the kept move again in a few seconds (and at once when the stream is live again). */
  #retryLater(): void {
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#sendPending(), RETRY_MS);
  }

  /** Sends the move kept while offline, with the same id (a copy that did arrive is not applied twice). */
  async #sendPending(): Promise<void> {
    const pending = this.#pending;
    const seat = this.seat;
    if (!pending || !seat || this.busy) return;
    this.busy = true;
    try {
      const response = await this.client.submit<Request, Request["type"], View, LegalOf<Request>, Action>(
        this.matchId,
        seat,
        pending.type,
        pending.body as ActionBody<Request, Request["type"]>,
        pending.options,
      );
      this.#pending = null;
      this.queued = false;
      this.error = null;
      this.#appendActions(response.actions);
      this.#applyView(response, false);
    } catch (error) {
      if (error instanceof ApiError && error.code === "network-error") {
        this.#retryLater(); // still offline: kept for the next try
        return;
      }
      this.#pending = null;
      this.queued = false;
      this.#fail(error); // refused now (the match moved on): said clearly, never silently dropped
      await this.refresh();
    } finally {
      this.busy = false;
    }
  }

  /** Submits one of the server's legal actions as it was listed. */
  play(legal: LegalOf<Request>, options: SubmitOptions = {}): Promise<boolean> {
    const { type, ...rest } = legal as { type: Request["type"] } & { [field: string]: unknown };
    delete rest.game_id;
    delete rest.player_id;
    return this.submit(type, rest as ActionBody<Request, typeof type>, options);
  }

  /** The legal actions of one type. */
  legalOf<T extends Request["type"]>(type: T): Extract<LegalOf<Request>, { type: T }>[] {
    return (this.legalActions ?? []).filter((action): action is Extract<LegalOf<Request>, { type: T }> => action.type === type);
  }

  async undo(): Promise<boolean> {
    if (this.seat === null || this.#readOnly) return false;
    this.busy = true;
    try {
      const view = await this.client.undo<View, LegalOf<Request>>(this.matchId, this.seat.token);
      this.error = null;
      this.#onReset(view);
      return true;
    } catch (error) {
      this.#fail(error);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Forks the match at `index` (after the first `index` actions). */
  async fork(index: number): Promise<ForkResponse | null> {
    try {
      const answer = await this.client.fork(this.matchId, index, this.token);
      this.error = null;
      return answer;
    } catch (error) {
      this.#fail(error);
      return null;
    }
  }

  /** Re-reads the view, the match and any missing actions. */
  async refresh(): Promise<void> {
    try {
      const [view, match] = await Promise.all([
        this.client.view<View, LegalOf<Request>>(this.matchId, this.token),
        this.client.getMatch(this.matchId),
      ]);
      this.match = match;
      await this.#fillLog(view.index);
      this.#applyView(view, true);
    } catch (error) {
      this.#fail(error);
    }
  }

  dismissError(): void {
    this.error = null;
  }

  #fail(error: unknown): void {
    this.error =
      error instanceof ApiError ? error : new ApiError(0, { code: "network-error", message: String(error), path: null });
  }

  #lastIndex(): number {
    const last = this.log.at(-1);
    return last?.index ?? this.log.length - 1;
  }

  #appendActions(actions: Action[]): void {
    const last = this.#lastIndex();
    const fresh = actions.filter((action) => (action.index ?? -1) > last);
    if (fresh.length) this.log = [...this.log, ...fresh];
  }

  async #fillLog(upTo: number): Promise<void> {
    const last = this.#lastIndex();
    if (last >= upTo - 1) return;
    const missing = await this.client.actions<Action>(this.matchId, this.token, last);
    this.#appendActions(missing.actions);
  }

  #applyView(data: ViewResponse<View, LegalOf<Request>> | UpdateEvent<View, LegalOf<Request>, Action>, force: boolean): void {
    if (!force && data.index < this.index) return; // an older answer than what the stream already showed
    this.view = data.view;
    this.index = data.index;
    this.checksum = data.checksum;
    this.status = data.status;
    this.validActionTypes = data.valid_action_types;
    this.legalActions = data.legal_actions;
    this.canUndo = data.can_undo;
    if (this.match && (this.match.status !== data.status || this.match.index !== data.index)) {
      this.match = { ...this.match, status: data.status, index: data.index, checksum: data.checksum };
    }
    if (data.status === "finished" && this.match?.result == null) void this.refreshMatch();
  }

  /** True while a human seat of the match is free (someone may still join). */
  get hasFreeSeats(): boolean {
    return this.match?.seats.some((seat) => !seat.bot && !seat.occupied) ?? false;
  }

  /** Re-reads the match's metadata (seats, result). */
  async refreshMatch(): Promise<void> {
    try {
      this.match = await this.client.getMatch(this.matchId);
    } catch (error) {
      this.#fail(error);
    }
  }

  #onSnapshot(data: ViewResponse<View, LegalOf<Request>>): void {
    this.#paced = []; // the snapshot shows where the match is now
    if (data.index < this.#lastIndex() + 1) {
      // The log is longer than the server's: an undo we missed while disconnected.
      this.log = this.log.filter((action) => (action.index ?? 0) < data.index);
    }
    this.#applyView(data, true);
    void this.#fillLog(data.index).catch((error: unknown) => this.#fail(error));
  }

  /** The bot seat that made one of the update's actions; null when none did. */
  #botOf(data: UpdateEvent<View, LegalOf<Request>, Action>): string | null {
    const bots = new Set(this.match?.seats.filter((seat) => seat.bot).map((seat) => seat.player_id) ?? []);
    for (const action of data.actions) {
      const playerId = (action as { player_id?: string | null }).player_id;
      if (playerId && bots.has(playerId)) return playerId;
    }
    return null;
  }

  #onUpdate(data: UpdateEvent<View, LegalOf<Request>, Action>): void {
    if (this.paceMs > 0 && (this.#pacing || this.#botOf(data) !== null)) {
      this.#paced.push(data);
      void this.#drainPaced();
      return;
    }
    this.#showUpdate(data);
  }

  /** Shows the waiting updates in order, each with a bot's move after a beat naming the bot. */
  async #drainPaced(): Promise<void> {
    if (this.#pacing) return;
    this.#pacing = true;
    try {
      for (let next = this.#paced.shift(); next && !this.#stopped; next = this.#paced.shift()) {
        const bot = this.#botOf(next);
        if (bot !== null) {
          this.thinking = bot;
          await new Promise((resolve) => setTimeout(resolve, this.paceMs));
          this.thinking = null;
        }
        if (!this.#stopped) this.#showUpdate(next);
      }
    } finally {
      this.thinking = null;
      this.#pacing = false;
    }
  }

  #showUpdate(data: UpdateEvent<View, LegalOf<Request>, Action>): void {
    const first = data.actions[0]?.index ?? data.index;
    if (first > this.#lastIndex() + 1) {
      void this.#fillLog(first).then(
        () => {
          this.#appendActions(data.actions);
          this.#applyView(data, false);
        },
        // The gap stays in the log (the next update's fill reads it); the table shows the move now.
        () => this.#applyView(data, false),
      );
      return;
    }
    this.#appendActions(data.actions);
    this.#applyView(data, false);
  }

  #onReset(data: ViewResponse<View, LegalOf<Request>>): void {
    this.#paced = [];
    this.log = this.log.filter((action) => (action.index ?? 0) < data.index);
    this.#applyView(data, true);
    if (this.match) this.match = { ...this.match, status: data.status, index: data.index, result: null, winners: [] };
  }
}
