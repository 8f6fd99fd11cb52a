// The match's server-sent events, with reconnect and resume: each connection gets a fresh
// single-use stream token and resumes after the last event id it saw (`last_event_id`).
import type { TabletopClient } from "./api.js";
import type { UpdateEvent, ViewResponse } from "./protocol.js";

export interface StreamHandlers<View, Legal, Action> {
  /** The first event of every connection (and after a resync): the whole view. */
  snapshot(data: ViewResponse<View, Legal>): void;
  /** One accepted submission: its projected actions and the view after it. */
  update(data: UpdateEvent<View, Legal, Action>): void;
  /** After an undo: the log was cut at `data.index`. */
  reset(data: ViewResponse<View, Legal>): void;
  /** The connection opened (true) or dropped (false). */
  connection(open: boolean): void;
}

/** The smallest part of EventSource the stream uses (tests may pass their own). */
export type EventSourceFactory = (url: string) => EventSource;

const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

export class MatchStream<View, Legal, Action> {
  #source: EventSource | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;
  #delay = MIN_DELAY_MS;
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
    const listen = <T>(name: string, handle: (data: T) => void) => {
      source.addEventListener(name, (event) => {
        const message = event as MessageEvent<string>;
        const id = Number.parseInt(message.lastEventId, 10);
        if (!Number.isNaN(id)) this.lastEventId = id;
        handle(JSON.parse(message.data) as T);
      });
    };
    listen<ViewResponse<View, Legal>>("snapshot", (data) => this.handlers.snapshot(data));
    listen<UpdateEvent<View, Legal, Action>>("update", (data) => this.handlers.update(data));
    listen<ViewResponse<View, Legal>>("reset", (data) => this.handlers.reset(data));
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
