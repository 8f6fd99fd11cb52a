// A scripted server for the client's unit tests: fetch answers by route, and event sources the
// test drives by hand.
import type { EventSourceFactory } from "../src/stream.js";

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: Call) => { status: number; body?: unknown };

export class FakeServer {
  calls: Call[] = [];
  routes: [string, RegExp, Handler][] = [];
  sources: FakeEventSource[] = [];

  on(method: string, path: RegExp, handler: Handler): this {
    this.routes.unshift([method, path, handler]);
    return this;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = String(input);
    const call: Call = {
      method: init?.method ?? "GET",
      url,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    this.calls.push(call);
    const route = this.routes.find(([method, path]) => method === call.method && path.test(url));
    if (!route) return new Response(JSON.stringify({ code: "not-found", message: `no route ${url}`, path: null }), { status: 404 });
    const answer = route[2](call);
    return new Response(answer.status === 204 ? null : JSON.stringify(answer.body), { status: answer.status });
  };

  readonly eventSource: EventSourceFactory = (url) => {
    const source = new FakeEventSource(url);
    this.sources.push(source);
    return source as unknown as EventSource;
  };
}

export class FakeEventSource {
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  listeners = new Map<string, ((event: { data: string; lastEventId: string }) => void)[]>();

  constructor(readonly url: string) {}

  addEventListener(name: string, listener: (event: { data: string; lastEventId: string }) => void): void {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.onopen?.();
  }

  emit(name: string, id: number, data: unknown): void {
    for (const listener of this.listeners.get(name) ?? []) listener({ data: JSON.stringify(data), lastEventId: String(id) });
  }

  fail(): void {
    this.onerror?.();
  }
}

/** An `update` as the server sends it when it has no base: the whole document. */
export function whole(document: unknown): { base: null; patch: unknown[] } {
  return { base: null, patch: [document] };
}

/** Lets pending promise callbacks run. */
export async function settle(ms = 0): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}
