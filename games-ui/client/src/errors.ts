// Typed errors: every failed call rejects with an ApiError carrying the server's `{code, message, path}`.

/** The codes the server documents (the engine's own codes pass through as other strings). */
export type KnownErrorCode =
  | "invalid-json"
  | "not-an-object"
  | "unexpected-field"
  | "missing-field"
  | "invalid-value"
  | "unknown-action-type"
  | "wrong-game"
  | "missing-token"
  | "invalid-token"
  | "wrong-seat"
  | "not-your-turn"
  | "player-not-active"
  | "unknown-game"
  | "unknown-match"
  | "unknown-seat"
  | "not-found"
  | "stale-index"
  | "seat-taken"
  | "seat-is-bot"
  | "invite-required"
  | "invalid-invite"
  | "not-creator"
  | "match-ended"
  | "idempotency-key-reused"
  | "undo-not-allowed"
  | "incompatible-logic-version"
  | "game-over"
  | "payload-too-large"
  | "storage-unavailable"
  | "bots-busy"
  | "network-error"
  | "move-queued"
  | "bad-response";

/** A known code, or any engine code (`square-taken`, `not-holding-rank`, ...). */
export type ErrorCode = KnownErrorCode | (string & Record<never, never>);

/** The one error shape of the API. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  path: string | null;
  /** `stale-index` only: the head now. */
  index?: number;
  /** `stale-index` only: how many actions the client missed. */
  missed?: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly path: string | null;
  readonly index: number | undefined;
  readonly missed: number | undefined;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = "ApiError";
    this.status = status;
    this.code = body.code;
    this.path = body.path;
    this.index = body.index;
    this.missed = body.missed;
  }

  /** True for a well-formed action the rules refused (422), as opposed to a transport or auth problem. */
  get isRuleViolation(): boolean {
    return this.status === 422;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null) return false;
  const body = value as { [key: string]: unknown };
  return typeof body.code === "string" && typeof body.message === "string";
}

/** Turns any failed response into an ApiError (a body that is not the error shape becomes `bad-response`). */
export async function errorFrom(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (isErrorBody(body)) return new ApiError(response.status, { ...body, path: body.path ?? null });
  return new ApiError(response.status, {
    code: "bad-response",
    message: `the server answered ${response.status} ${response.statusText}`,
    path: null,
  });
}

/** What a player should read for an error: the message, and the field it is about. */
export function describeError(error: ApiError): string {
  const where = error.path ? ` (${error.path})` : "";
  return `${error.message}${where}`;
}
