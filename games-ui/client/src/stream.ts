// The match's server-sent events, with reconnect and resume: each connection gets a fresh
// single-use stream token and resumes after the last event id it saw (`last_event_id`). An
// `update` carries a delta from a document this connection received earlier (API.md, "Deltas");
// the stream rebuilds the whole update, and when a delta does not apply it reconnects without
// `last_event_id`, so the server starts over with a snapshot.
import type { TabletopClient } from "./api.js";
import { applyDelta, DeltaError, type Json } from "./delta.js";
import { ApiError, type ErrorBody } from "./errors.js";
import type { UpdateEvent, UpdateWire, ViewResponse } from "./protocol.js";

export interface StreamHandlers<View, Legal, Action> {
  /** The first event of every connection (and after a resync): the whole view. */
  snapshot(data: ViewResponse<View, Legal>): void;
  /** One accepted submission: its projected actions and the view after it. */
  update(data: UpdateEvent<View, Legal, Action>): void;
  /** After an undo: the log was cut at `data.index`. */
  reset(data: ViewResponse<View, Legal>): void;
  /** The connection opened (true) or dropped (false). */
  connection(open: boolean): void;
  /** The server ended the stream for good (`end` with `invalid-token`: the seat token that opened
   * it no longer holds the seat); the stream does not reconnect. */
  ended?(error: ApiError): void;
}

/** `end` codes after which reconnecting cannot help (the seat is lost); any other code (e.g.
 * `storage-unavailable`) is retried with a fresh stream token. */
const FINAL_END_CODES: ReadonlySet<string> = new Set(["invalid-token"]);

/** The smallest part of EventSource the stream uses (tests may pass their own). */
export type EventSourceFactory = (url: string) => EventSource;

const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;
/** How many of the connection's last documents are kept as delta bases (the server uses 3). */
const KEPT_DOCUMENTS = 8;

export class MatchStream<View, Legal, Action> {
  #source: EventSource | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;
  #delay = MIN_DELAY_MS;
  /** The documents of this connection's events, by event id: the bases of its deltas. */
  #documents = new Map<number, Json>();
  /** The id of the last event received: the index of the last action seen. */
  lastEventId: number | null;

  constructor(
    private readonly client: TabletopClient,
    private readonly matchId: string,
    private readonly token: string | null,
    private readonly handlers: StreamHandlers<View, Legal, Action>,
    lastEventId: number | null = null,
    private readonly factory: EventSourceFactory = (url) => new EventSource(url),
  ) {
    this.lastEventId = lastEventId;
  }

  /** Opens the stream (and keeps reopening it until closed). */
  start(): void {
    this.#closed = false;
    void this.#connect();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#source?.close();
    this.#source = null;
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    let streamToken: string;
    try {
      streamToken = await this.client.streamToken(this.matchId, this.token);
    } catch {
      this.#retry();
      return;
    }
    if (this.#closed) return;
    const source = this.factory(this.client.eventsUrl(this.matchId, streamToken, this.lastEventId));
    this.#source = source;
    this.#documents = new Map();
    source.onopen = () => {
      this.#delay = MIN_DELAY_MS;
      this.handlers.connection(true);
    };
    source.onerror = () => {
      // The token is single-use: the browser's own retry would be refused, so reconnect ourselves.
      source.close();
      if (this.#source === source) this.#source = null;
      this.handlers.connection(false);
      this.#retry();
    };
    const listen = (name: string, handle: (data: Json, id: number) => void) => {
      source.addEventListener(name, (event) => {
        if (this.#source !== source) return; // a connection given up for a resync
        const message = event as MessageEvent<string>;
        const id = Number.parseInt(message.lastEventId, 10);
        if (Number.isNaN(id)) return;
        handle(JSON.parse(message.data) as Json, id);
      });
    };
    const whole = (name: "snapshot" | "reset") => (data: Json, id: number) => {
      this.lastEventId = id;
      this.#documents = new Map(); // the server builds on nothing older (ids may repeat after an undo)
      this.#keep(id, { ...(data as { [key: string]: Json }), actions: [] });
      this.handlers[name](data as unknown as ViewResponse<View, Legal>);
    };
    source.addEventListener("end", (event) => {
      // The server closed the stream and says why: {code, message, path}.
      if (this.#source !== source) return;
      const body = JSON.parse((event as MessageEvent<string>).data) as ErrorBody;
      source.close();
      this.#source = null;
      this.handlers.connection(false);
      if (FINAL_END_CODES.has(body.code)) {
        this.close();
        this.handlers.ended?.(new ApiError(401, body));
      } else {
        this.#retry();
      }
    });
    listen("snapshot", whole("snapshot"));
    listen("reset", whole("reset"));
    listen("update", (data, id) => {
      let document: Json;
      try {
        document = this.#rebuild(data as unknown as UpdateWire);
      } catch (error) {
        if (!(error instanceof DeltaError)) throw error;
        this.#resync(source);
        return;
      }
      this.lastEventId = id;
      this.#keep(id, document);
      this.handlers.update(document as unknown as UpdateEvent<View, Legal, Action>);
    });
  }

  /** The whole update a delta describes (its base: a document of this connection, or none). */
  #rebuild(wire: UpdateWire): Json {
    if (wire === null || typeof wire !== "object" || !("patch" in wire)) throw new DeltaError("an update without a patch");
    let base: Json = null;
    if (wire.base !== null) {
      const kept = this.#documents.get(wire.base);
      if (kept === undefined) throw new DeltaError(`base ${wire.base} is not an event of this connection`);
      base = kept;
    }
    const document = applyDelta(base, wire.patch);
    if (document === null || typeof document !== "object" || Array.isArray(document) || !Array.isArray(document.actions)) {
      throw new DeltaError("the rebuilt update is not a view with actions");
    }
    return document;
  }

  #keep(id: number, document: Json): void {
    this.#documents.set(id, document);
    for (const old of this.#documents.keys()) {
      if (this.#documents.size <= KEPT_DOCUMENTS) break;
      this.#documents.delete(old);
    }
  }

  /** A delta did not apply: start over from a snapshot (no `last_event_id`). */
  #resync(source: EventSource): void {
    source.close();
    if (this.#source === source) this.#source = null;
    this.lastEventId = null;
    this.handlers.connection(false);
    this.#retry();
  }

  #retry(): void {
    if (this.#closed || this.#timer !== null) return;
    const delay = this.#delay;
    this.#delay = Math.min(this.#delay * 2, MAX_DELAY_MS);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#connect();
    }, delay);
  }
}
