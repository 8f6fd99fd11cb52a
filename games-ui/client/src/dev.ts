// The developer panel's routes (`tabletop serve --dev`; a server without it answers
// `404 dev-mode-off`): the full state and every seat's view at any index, and a random move.
import type { TabletopClient } from "./api.js";
import type { Json } from "./delta.js";
import { ApiError, errorFrom } from "./errors.js";

/** One seat's view at the inspected index, exactly as that seat's page gets it. */
export interface DevSeatView {
  player_id: string;
  view: { [key: string]: Json };
  valid_action_types: string[];
  legal_actions: { [key: string]: Json }[] | null;
}

/** `GET /api/dev/matches/{id}?index=N`: the match after its first `index` actions. */
export interface DevInspection {
  match_id: string;
  index: number;
  head: number;
  base_index: number;
  /** The full state, secrets included. */
  state: { [key: string]: Json };
  spectator: { [key: string]: Json };
  seats: DevSeatView[];
  /** Every recorded action in full, up to the head. */
  actions: { [key: string]: Json }[];
}

/** `POST /api/dev/matches/{id}/bot-move`: the action played for the seat. */
export interface DevBotMove {
  player_id: string;
  action: { [key: string]: Json };
  index: number;
}

async function json<T>(client: TabletopClient, method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${client.baseUrl}${path}`, {
      method,
      headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, { code: "network-error", message: `cannot reach the server: ${String(error)}`, path: null });
  }
  if (!response.ok) throw await errorFrom(response);
  return (await response.json()) as T;
}

/** True when the server runs with `--dev` (false on `404 dev-mode-off` or any error). */
export async function devEnabled(client: TabletopClient): Promise<boolean> {
  try {
    const answer = await json<{ enabled: boolean }>(client, "GET", "/dev");
    return answer.enabled === true;
  } catch {
    return false;
  }
}

/** The match after its first `index` actions (now when null): replayed, nothing is written. */
export function devInspect(client: TabletopClient, matchId: string, index: number | null): Promise<DevInspection> {
  const query = index === null ? "" : `?index=${index}`;
  return json(client, "GET", `/dev/matches/${encodeURIComponent(matchId)}${query}`);
}

/** Plays one random legal move for `playerId` (null: the first active seat with a move). */
export function devBotMove(client: TabletopClient, matchId: string, playerId: string | null): Promise<DevBotMove> {
  return json(client, "POST", `/dev/matches/${encodeURIComponent(matchId)}/bot-move`, playerId === null ? {} : { player_id: playerId });
}

const DEV_SEATS = "tabletop.dev.seats.";

/** The seat tokens this browser holds for a match in the developer panel, by player id. */
export function loadDevSeats(matchId: string): { [playerId: string]: string } {
  try {
    const raw = globalThis.localStorage?.getItem(DEV_SEATS + matchId);
    const found: unknown = raw ? JSON.parse(raw) : {};
    const seats: { [playerId: string]: string } = {};
    if (found && typeof found === "object") for (const [id, token] of Object.entries(found)) if (typeof token === "string") seats[id] = token;
    return seats;
  } catch {
    return {};
  }
}

/** Keeps a seat token for the developer panel's seat switcher. */
export function saveDevSeat(matchId: string, playerId: string, token: string): void {
  try {
    globalThis.localStorage?.setItem(DEV_SEATS + matchId, JSON.stringify({ ...loadDevSeats(matchId), [playerId]: token }));
  } catch {
    // storage is optional: the switcher then only offers free seats
  }
}
