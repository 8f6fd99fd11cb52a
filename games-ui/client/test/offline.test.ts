// A move made while the server cannot be reached is kept and sent again with the same id when the
// stream is live again (never lost, never applied twice), or refused with a clear error; bot moves
// are shown one at a time after a "thinking…" beat when the session is paced.
import { describe, expect, it } from "vitest";
import { MatchSession, TabletopClient } from "../src/index.js";
import { FakeServer, settle, whole } from "./fakes.js";

interface View {
  n: number;
}
interface Action {
  type: "Mark";
  index: number;
  player_id: string;
  square: number;
}
type Request = { type: "Mark"; id: string; game_id: string; player_id: string; square: number };

const seats = [
  { player_id: "p1", name: "Ann", bot: null, occupied: true },
  { player_id: "p2", name: "Robo", bot: { kind: "random" }, occupied: true },
];
const match = { id: "m1", game: "marks", logic_version: "1.0.0", status: "in_progress", visibility: "public", config: {}, index: 0, checksum: 0, seats, result: null, winners: [], parent: null, created_at: "", updated_at: "" };

function viewAt(index: number, mine = true) {
  return {
    match_id: "m1",
    player_id: "p1",
    index,
    checksum: index,
    status: "in_progress",
    view: { n: index },
    valid_action_types: mine ? ["Mark"] : [],
    legal_actions: mine ? [{ type: "Mark", square: 1 }] : [],
    can_undo: false,
  };
}

function server(state: { offline: boolean; answer: (call: { body: unknown }) => { status: number; body?: unknown } }) {
  const fake = new FakeServer();
  let tokens = 0;
  fake
    .on("GET", /\/matches\/m1$/, () => ({ status: 200, body: match }))
    .on("GET", /\/view$/, () => ({ status: 200, body: viewAt(0) }))
    .on("GET", /\/actions\?after=/, () => ({ status: 200, body: { actions: [], index: 0 } }))
    .on("POST", /\/stream-tokens$/, () => ({ status: 201, body: { stream_token: `st${++tokens}` } }))
    .on("POST", /\/actions\/Mark$/, (call) => state.answer(call));
  const online = fake.fetch;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (state.offline && String(input).includes("/actions/")) {
      fake.calls.push({ method: init?.method ?? "GET", url: String(input), headers: {}, body: JSON.parse(String(init?.body)) });
      throw new TypeError("Failed to fetch");
    }
    return online(input, init);
  };
  return { fake, fetch };
}

async function started(fetch: typeof globalThis.fetch, fake: FakeServer) {
  const session = new MatchSession<View, Action, Request>(new TabletopClient({ fetch }), "m1", { playerId: "p1", token: "t1" }, fake.eventSource);
  await session.start();
  fake.sources[0]?.open();
  await settle();
  return session;
}

const posts = (fake: FakeServer) => fake.calls.filter((call) => call.url.endsWith("/actions/Mark"));

describe("a move made offline", () => {
  it("is kept, and sent again with the same id when the stream is live again", async () => {
    const state = { offline: true, answer: () => ({ status: 200, body: { ...viewAt(1, false), actions: [{ type: "Mark", index: 0, player_id: "p1", square: 1 }] } }) };
    const { fake, fetch } = server(state);
    const session = await started(fetch, fake);
    expect(await session.submit("Mark", { square: 1 })).toBe(false);
    expect(session.queued).toBe(true);
    expect(session.error?.code).toBe("network-error");
    expect(session.error?.message).not.toContain("TypeError");
    expect(await session.submit("Mark", { square: 1 })).toBe(false); // one kept move at a time
    expect(session.error?.code).toBe("move-queued");
    fake.sources[0]?.fail();
    state.offline = false;
    await settle(300); // the stream reconnects after its first delay
    fake.sources[1]?.open();
    await settle();
    expect(session.queued).toBe(false);
    expect(session.error).toBeNull();
    expect(session.index).toBe(1);
    const ids = new Set(posts(fake).map((call) => (call.body as { id: string }).id));
    expect(ids.size).toBe(1); // every attempt carried the same id: the server applies it once
    session.stop();
  });

  it("is refused clearly when the match moved on meanwhile", async () => {
    const state = {
      offline: true,
      answer: () => ({ status: 409, body: { code: "not-your-turn", message: "it is p2's turn", path: null } }),
    };
    const { fake, fetch } = server(state);
    const session = await started(fetch, fake);
    await session.submit("Mark", { square: 1 });
    state.offline = false;
    fake.sources[0]?.fail();
    await settle(300);
    fake.sources[1]?.open();
    await settle();
    expect(session.queued).toBe(false);
    expect(session.error?.code).toBe("not-your-turn");
    session.stop();
  });
});

describe("pacing", () => {
  it("shows a bot's move after a beat naming the bot", async () => {
    const { fake, fetch } = server({ offline: false, answer: () => ({ status: 500 }) });
    const session = await started(fetch, fake);
    session.paceMs = 80;
    fake.sources[0]?.emit("update", 1, whole({ ...viewAt(1), actions: [{ type: "Mark", index: 0, player_id: "p2", square: 3 }] }));
    expect(session.thinking).toBe("p2");
    expect(session.index).toBe(0);
    await settle(150);
    expect(session.thinking).toBeNull();
    expect(session.index).toBe(1);
    expect(session.log.map((action) => action.player_id)).toEqual(["p2"]);
    session.stop();
  });
});
