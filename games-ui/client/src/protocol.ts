// The server's wire types (packages/server/API.md). Game-specific parts (views, actions, request
// bodies) are type parameters, filled from @tabletop/types by each game UI.
import type { GameResult } from "@tabletop/types/common";
import type { Json } from "./delta.js";

/** A JSON Schema document, as the server sends a game's config schema. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  properties?: { [name: string]: JsonSchema };
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: { [name: string]: JsonSchema };
  additionalProperties?: boolean | JsonSchema;
}

/** An installed game, as `GET /api/games` lists it. */
export interface GameInfo {
  name: string;
  title: string;
  description: string;
  min_players: number;
  max_players: number;
  logic_version: string;
  config_schema: JsonSchema;
  /** The action types a player may send (no system-only actions). */
  action_types: string[];
  hidden_information: boolean;
  /** The time controls and timeout policies a match may choose. */
  clocks?: { time_controls: string[]; timeout_policies: string[] };
}

/** A server-played seat. */
export type BotSpec = { kind: "random" } | { kind: "mcts"; iterations?: number };

/** One seat of a new match. */
export interface SeatSpec {
  name?: string;
  bot?: BotSpec | null;
}

/** Who may find a match and take its free seats: `public` (listed, seats open to anyone) or `private` (seats need an invite). */
export type Visibility = "public" | "private";

/** The body of `POST /api/matches`. */
export interface CreateMatchRequest {
  game: string;
  seats: SeatSpec[];
  config?: { [option: string]: unknown };
  seed?: number;
  /** `public` by default. */
  visibility?: Visibility;
  /** The match's time control and timeout policy (none by default). */
  clock?: unknown;
}

/** `ended`: its creator or an operator ended it before it finished. */
export type MatchStatus = "in_progress" | "finished" | "ended";

export interface SeatInfo {
  player_id: string;
  name: string | null;
  bot: BotSpec | null;
  occupied: boolean;
}

export interface MatchInfo {
  id: string;
  game: string;
  logic_version: string;
  status: MatchStatus;
  visibility: Visibility;
  config: { [option: string]: unknown };
  index: number;
  checksum: number;
  seats: SeatInfo[];
  result: GameResult | null;
  winners: string[];
  parent: { match_id: string; index: number } | null;
  created_at: string;
  updated_at: string;
}

/** What a seat (or a spectator, `player_id` null) sees: `GET .../view`. */
export interface ViewResponse<View, Legal> {
  match_id: string;
  player_id: string | null;
  /** The number of recorded actions: the next action's index. */
  index: number;
  checksum: number;
  status: MatchStatus;
  view: View;
  valid_action_types: string[];
  /** The seat's legal action bodies (without id); null when not enumerable. */
  legal_actions: Legal[] | null;
  can_undo: boolean;
}

/** `POST .../actions/<Type>`: the view after the action, and the actions it recorded. */
export interface ActionResponse<View, Legal, Action> extends ViewResponse<View, Legal> {
  actions: Action[];
}

/**
 * `event: update` as sent: a delta (API.md, "Deltas") from the document of event `base` of the same
 * connection, or the whole document when `base` is null. `MatchStream` rebuilds the `UpdateEvent`.
 */
export interface UpdateWire {
  base: number | null;
  patch: Json;
}

/** `event: update` of the match stream, as `MatchStream` hands it on (rebuilt from its delta). */
export interface UpdateEvent<View, Legal, Action> {
  actions: Action[];
  index: number;
  checksum: number;
  status: MatchStatus;
  view: View;
  valid_action_types: string[];
  legal_actions: Legal[] | null;
  can_undo: boolean;
}

/** A seat's invite: the secret that claims it, and the lobby UI's link carrying it. */
export interface Invite {
  player_id: string;
  invite: string;
  link: string;
}

/** `POST /api/matches`: the match and the secrets only its creator gets (returned once). */
export interface CreatedMatch extends MatchInfo {
  /** Ends the match, and claims any free seat (as an invite). */
  creator_token: string;
  /** One per human seat. */
  invites: Invite[];
}

export interface JoinResponse {
  player_id: string;
  token: string;
}

export interface ForkResponse {
  match: MatchInfo;
  tokens: { [playerId: string]: string };
}

/** The parts of a request body the client fills itself (the server checks them). */
export type Filled = "id" | "game_id" | "player_id";

/** What a UI passes to submit an action of type `T`: the request body without the filled fields. */
export type ActionBody<Request extends { type: string }, T extends Request["type"]> = Omit<
  Extract<Request, { type: T }>,
  Filled | "type"
> & { [K in Filled]?: never };
