// @tabletop/client: a small typed client for the tabletop server API (packages/server/API.md).
export { TabletopClient, newActionId, type ClientOptions, type JoinOptions, type SubmitOptions } from "./api.js";
export { devBotMove, devEnabled, devInspect, loadDevSeats, saveDevSeat, type DevBotMove, type DevInspection, type DevSeatView } from "./dev.js";
export { applyDelta, DeltaError, type Json } from "./delta.js";
export { ApiError, describeError, errorFrom, type ErrorBody, type ErrorCode, type KnownErrorCode } from "./errors.js";
export type {
  ActionBody,
  ActionResponse,
  BotSpec,
  CreateMatchRequest,
  CreatedMatch,
  Filled,
  ForkResponse,
  GameInfo,
  Invite,
  JoinResponse,
  JsonSchema,
  MatchInfo,
  MatchStatus,
  SeatInfo,
  SeatSpec,
  UpdateEvent,
  UpdateWire,
  ViewResponse,
  Visibility,
} from "./protocol.js";
export { forgetSeat, heldSeats, loadCreator, loadSeat, saveCreator, saveSeat, type CreatorSecrets, type Seat } from "./seats.js";
export { MatchSession, type LegalOf } from "./session.svelte.js";
export { MatchStream, type EventSourceFactory, type StreamHandlers } from "./stream.js";
export {
  defineGameUi,
  describeTimeExpired,
  isTimeExpired,
  type AnyGameUi,
  type GameActionOf,
  type GameUi,
  type GameUiProps,
  type TimeExpiredAction,
} from "./ui.js";
export { default as ErrorBanner } from "./ErrorBanner.svelte";
export { default as TurnStatus } from "./kit/TurnBanner.svelte";
export * from "./kit/index.js";
