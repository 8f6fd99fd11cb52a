// The HTTP client of the tabletop server: one method per route of packages/server/API.md.
import { ApiError, errorFrom } from "./errors.js";
import type {
  ActionBody,
  ActionResponse,
  CreateMatchRequest,
  CreatedMatch,
  ForkResponse,
  GameInfo,
  JoinResponse,
  MatchInfo,
  MatchStatus,
  ViewResponse,
} from "./protocol.js";

export interface ClientOptions {
  /** Where the API lives; `/api` on the UI's own origin by default. */
  baseUrl?: string;
  /** The fetch to use (tests pass their own). */
  fetch?: typeof fetch;
}

/** Options of a submission. */
export interface SubmitOptions {
  /** Pin the match head: accepted only if this is still the next index, else `409 stale-index`. */
  index?: number;
  /** The action id (the idempotency key, scoped to the seat); a fresh UUID by default. A submission whose answer was lost is sent again with the same id. */
  id?: string;
}

/** Options of a seat claim. */
export interface JoinOptions {
  /** A display name to set. */
  name?: string;
  /** The seat's invite secret or the creator token (a private match's seat needs one). */
  invite?: string;
  /** The claim's idempotency key; a fresh UUID by default. */
  idempotencyKey?: string;
}

/** A fresh action id (also used as an idempotency key: a random UUID). */
export function newActionId(): string {
  return crypto.randomUUID();
}

/** How many times a keyed POST whose answer was lost (no response at all) is sent again. */
const RETRIES = 2;

export class TabletopClient {
  readonly baseUrl: string;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? "/api").replace(/\/$/, "");
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async #request<T>(method: string, path: string, options: { token?: string | null; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await this.#fetch(`${this.baseUrl}${path}`, { method, headers, body });
    } catch (error) {
      throw new ApiError(0, { code: "network-error", message: "the server did not answer (offline, or the server is down)", path: null });
    }
    if (!response.ok) throw await errorFrom(response);
    if (response.status === 204) return undefined as T;
    try {
      return (await response.json()) as T;
    } catch {
      throw new ApiError(response.status, { code: "bad-response", message: "the server sent no JSON", path: null });
    }
  }

  /** Every installed game. */
  async listGames(): Promise<GameInfo[]> {
    return (await this.#request<{ games: GameInfo[] }>("GET", "/games")).games;
  }

  /** Matches, newest first. */
  async listMatches(filter: { game?: string; status?: MatchStatus } = {}): Promise<MatchInfo[]> {
    const query = new URLSearchParams();
    if (filter.game) query.set("game", filter.game);
    if (filter.status) query.set("status", filter.status);
    const suffix = query.size ? `?${query}` : "";
    return (await this.#request<{ matches: MatchInfo[] }>("GET", `/matches${suffix}`)).matches;
  }

  /**
   * Creates a match. Sent with an `Idempotency-Key` (fresh by default), and sent again with the
   * same key when no answer came back: the retry gets the same match, never a second one.
   */
  createMatch(request: CreateMatchRequest, idempotencyKey: string = newActionId()): Promise<CreatedMatch> {
    return this.#keyed("POST", "/matches", { body: request, headers: { "Idempotency-Key": idempotencyKey } });
  }

  /** Ends the match with its creator token: it takes no more actions or seats, and its bots stop. */
  endMatch(matchId: string, creatorToken: string): Promise<MatchInfo> {
    return this.#keyed("POST", `/matches/${enc(matchId)}/end`, { token: creatorToken });
  }

  /** A keyed POST: sent again (same key, same body) when the answer was lost on the way. */
  async #keyed<T>(method: string, path: string, options: { token?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#request<T>(method, path, options);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== "network-error" || attempt >= RETRIES) throw error;
      }
    }
  }

  getMatch(matchId: string): Promise<MatchInfo> {
    return this.#request("GET", `/matches/${enc(matchId)}`);
  }

  /**
   * Takes a free seat; the token is returned once. Sent with an `Idempotency-Key`, and again with
   * the same key when no answer came back: the retry gets a fresh token for the same seat.
   */
  join(matchId: string, playerId: string, options: JoinOptions = {}): Promise<JoinResponse> {
    const body = { ...(options.name ? { name: options.name } : {}), ...(options.invite ? { invite: options.invite } : {}) };
    const headers = { "Idempotency-Key": options.idempotencyKey ?? newActionId() };
    return this.#keyed("POST", `/matches/${enc(matchId)}/seats/${enc(playerId)}`, { body, headers });
  }

  /** Gives the seat back; the token stops working. */
  leave(matchId: string, playerId: string, token: string): Promise<void> {
    return this.#request("DELETE", `/matches/${enc(matchId)}/seats/${enc(playerId)}`, { token });
  }

  /** The caller's projected view (a spectator's without a token). */
  view<View, Legal>(matchId: string, token: string | null): Promise<ViewResponse<View, Legal>> {
    return this.#request("GET", `/matches/${enc(matchId)}/view`, { token });
  }

  /** The projected action log after index `after` (the whole log by default). */
  actions<Action>(matchId: string, token: string | null, after = -1): Promise<{ actions: Action[]; index: number }> {
    return this.#request("GET", `/matches/${enc(matchId)}/actions?after=${after}`, { token });
  }

  /**
   * Submits one action of type `type`; `body` is that action's request body (typed from the
   * game's generated request union) without the id, game and player, which the client fills.
   */
  submit<Request extends { type: string }, T extends Request["type"], View, Legal, Action>(
    matchId: string,
    seat: { playerId: string; token: string },
    type: T,
    body: ActionBody<Request, T>,
    options: SubmitOptions = {},
  ): Promise<ActionResponse<View, Legal, Action>> {
    const request = {
      ...body,
      id: options.id ?? newActionId(),
      game_id: matchId,
      type,
      player_id: seat.playerId,
      ...(options.index === undefined ? {} : { index: options.index }),
    };
    return this.#keyed("POST", `/matches/${enc(matchId)}/actions/${enc(type)}`, { token: seat.token, body: request });
  }

  /** Undoes the seat's own last action (`409 undo-not-allowed` when the rules forbid it). */
  undo<View, Legal>(matchId: string, token: string): Promise<ViewResponse<View, Legal>> {
    return this.#keyed("POST", `/matches/${enc(matchId)}/undo`, { token, headers: { "Idempotency-Key": newActionId() } });
  }

  /** A new match with the actions up to `index` (hidden values re-sampled for the forker's view). */
  fork(matchId: string, index: number, token: string | null): Promise<ForkResponse> {
    const headers = { "Idempotency-Key": newActionId() };
    return this.#keyed("POST", `/matches/${enc(matchId)}/fork`, { token, body: { index }, headers });
  }

  /** A single-use, short-lived token for the event stream (EventSource cannot send headers). */
  async streamToken(matchId: string, token: string | null): Promise<string> {
    const answer = await this.#request<{ stream_token: string }>("POST", `/matches/${enc(matchId)}/stream-tokens`, { token });
    return answer.stream_token;
  }

  /** The URL of the event stream, resuming after `lastEventId` when given. */
  eventsUrl(matchId: string, streamToken: string, lastEventId: number | null): string {
    const query = new URLSearchParams({ stream_token: streamToken });
    if (lastEventId !== null) query.set("last_event_id", String(lastEventId));
    return `${this.baseUrl}/matches/${enc(matchId)}/events?${query}`;
  }
}

function enc(part: string): string {
  return encodeURIComponent(part);
}
