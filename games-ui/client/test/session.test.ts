import { describe, expect, it } from "vitest";
import { MatchSession, TabletopClient } from "../src/index.js";
import { FakeServer, settle, whole } from "./fakes.js";

interface View {
  marks: string[];
}
interface Action {
  type: "Mark";
  index: number;
  player_id: string;
  square: number;
}
type Request = { type: "Mark"; id: string; game_id: string; player_id: string; square: number };

const match = {
  id: "m1",
  game: "marks",
  logic_version: "1.0.0",
  status: "in_progress",
  config: {},
  index: 2,
  checksum: 0,
  seats: [
    { player_id: "p1", name: "Ann", bot: null, occupied: true },
    { player_id: "p2", name: "Bob", bot: null, occupied: true },
  ],
  result: null,
  winners: [],
  parent: null,
  created_at: "",
  updated_at: "",
};

function mark(index: number, player: string): Action {
  return { type: "Mark", index, player_id: player, square: index };
}

function viewAt(index: number, extra: Record<string, unknown> = {}) {
  return {
    match_id: "m1",
    player_id: "p1",
    index,
    checksum: index,
    status: "in_progress",
    view: { marks: Array.from({ length: index }, (_, i) => `s${i}`) },
    valid_action_types: ["Mark"],
    legal_actions: [{ type: "Mark", game_id: "m1", player_id: "p1", square: 8 }],
    can_undo: false,
    ...extra,
  };
}

function scripted(log: Action[]) {
  const server = new FakeServer();
  let tokens = 0;
  server
    .on("GET", /\/matches\/m1$/, () => ({ status: 200, body: match }))
    .on("GET", /\/view$/, () => ({ status: 200, body: viewAt(log.length) }))
    .on("GET", /\/actions\?after=/, (call) => {
      const after = Number(new URL(call.url, "http://x").searchParams.get("after"));
      return { status: 200, body: { actions: log.filter((a) => a.index > after), index: log.length } };
    })
    .on("POST", /\/stream-tokens$/, () => ({ status: 201, body: { stream_token: `st${++tokens}`, expires_in: 60 } }));
  return server;
}

async function started(server: FakeServer) {
  const session = new MatchSession<View, Action, Request>(
    new TabletopClient({ fetch: server.fetch }),
    "m1",
    { playerId: "p1", token: "t1" },
    server.eventSource,
  );
  await session.start();
  await settle();
  return session;
}

describe("MatchSession", () => {
  it("loads the view and log, then applies live updates in order", async () => {
    const log = [mark(0, "p1"), mark(1, "p2")];
    const server = scripted(log);
    const session = await started(server);
    expect(session.log.map((a) => a.index)).toEqual([0, 1]);
    expect(session.myTurn).toBe(true);
    expect(session.nameOf("p2")).toBe("Bob");
    expect(session.nameOf("p1")).toBe("you");
    const source = server.sources[0];
    expect(source?.url).toBe("/api/matches/m1/events?stream_token=st1&last_event_id=1");
    source?.open();
    expect(session.connected).toBe(true);
    source?.emit("update", 2, whole({ ...viewAt(3, { valid_action_types: [], legal_actions: [] }), actions: [mark(2, "p1")] }));
    expect(session.index).toBe(3);
    expect(session.log.map((a) => a.index)).toEqual([0, 1, 2]);
    expect(session.myTurn).toBe(false);
    source?.emit("update", 2, whole({ ...viewAt(3), actions: [mark(2, "p1")] })); // a repeat adds nothing
    expect(session.log).toHaveLength(3);
    session.stop();
  });

  it("fills a gap in the log from the actions route", async () => {
    const log = [mark(0, "p1")];
    const server = scripted(log);
    const session = await started(server);
    log.push(mark(1, "p2"), mark(2, "p1"));
    server.sources[0]?.emit("update", 2, whole({ ...viewAt(3), actions: [mark(2, "p1")] }));
    await settle();
    expect(session.log.map((a) => a.index)).toEqual([0, 1, 2]);
    expect(server.calls.some((call) => call.url.endsWith("/actions?after=0"))).toBe(true);
    session.stop();
  });

  it("shows an update whose gap could not be filled, and fills the gap with the next one", async () => {
    const log = [mark(0, "p1")];
    const server = scripted(log);
    const session = await started(server);
    log.push(mark(1, "p2"), mark(2, "p1"), mark(3, "p2"));
    let refused = true;
    server.on("GET", /\/actions\?after=/, (call) => {
      if (refused) return { status: 503, body: { code: "storage-unavailable", message: "away", path: null } };
      const after = Number(new URL(call.url, "http://x").searchParams.get("after"));
      return { status: 200, body: { actions: log.filter((a) => a.index > after), index: log.length } };
    });
    server.sources[0]?.emit("update", 2, whole({ ...viewAt(3), actions: [mark(2, "p1")] }));
    await settle();
    expect(session.index).toBe(3); // the table is current: a player's turn is never hidden
    expect(session.log.map((a) => a.index)).toEqual([0]);
    refused = false;
    server.sources[0]?.emit("update", 3, whole({ ...viewAt(4), actions: [mark(3, "p2")] }));
    await settle();
    expect(session.index).toBe(4);
    expect(session.log.map((a) => a.index)).toEqual([0, 1, 2, 3]);
    session.stop();
  });

  it("rebuilds updates from their deltas against the documents the connection received", async () => {
    const server = scripted([mark(0, "p1"), mark(1, "p2")]);
    const session = await started(server);
    const source = server.sources[0];
    source?.emit("reset", 1, viewAt(2)); // document 1: the view at 2, no actions
    // keys sorted: actions 0, can_undo 1, checksum 2, index 3, legal_actions 4, ..., valid_action_types 8, view 9
    source?.emit("update", 2, { base: 1, patch: [0, [[mark(2, "p1")]], 2, 3, 3, 3, 4, [[]], 8, [[]], 9, [0, ["~", [[2, 0, [["s2"]]]]]]] });
    expect(session.index).toBe(3);
    expect(session.view?.marks).toEqual(["s0", "s1", "s2"]);
    expect(session.myTurn).toBe(false);
    expect(session.log.map((a) => a.index)).toEqual([0, 1, 2]);
    // based on document 1 again (the server picks the shortest of its last documents)
    source?.emit("update", 3, { base: 1, patch: [0, [[mark(2, "p1"), mark(3, "p2")]], 2, 4, 3, 4, 9, [0, ["~", [[2, 0, [["s2", "s3"]]]]]]] });
    expect(session.index).toBe(4);
    expect(session.view?.marks).toEqual(["s0", "s1", "s2", "s3"]);
    expect(session.myTurn).toBe(true);
    expect(session.log.map((a) => a.index)).toEqual([0, 1, 2, 3]);
    expect(source?.closed).toBe(false);
    session.stop();
  });

  it("starts over from a snapshot when a delta does not apply", async () => {
    const log = [mark(0, "p1"), mark(1, "p2")];
    const server = scripted(log);
    const session = await started(server);
    const first = server.sources[0];
    first?.open();
    first?.emit("update", 2, { base: 0, patch: [3, 3] }); // base 0 never came on this connection
    expect(first?.closed).toBe(true);
    expect(session.connected).toBe(false);
    expect(session.index).toBe(2);
    await settle(300);
    const second = server.sources[1];
    expect(second?.url).toBe("/api/matches/m1/events?stream_token=st2"); // no last_event_id: a snapshot
    log.push(mark(2, "p1"));
    second?.emit("snapshot", 2, viewAt(3));
    await settle();
    expect(session.index).toBe(3);
    expect(session.log.map((a) => a.index)).toEqual([0, 1, 2]);
    second?.emit("update", 3, { base: 2, patch: [99, 1] }); // a position the document does not have
    expect(second?.closed).toBe(true);
    session.stop();
  });

  it("drops the undone actions on a reset", async () => {
    const server = scripted([mark(0, "p1"), mark(1, "p2"), mark(2, "p1")]);
    const session = await started(server);
    server.sources[0]?.emit("reset", 1, viewAt(2));
    expect(session.log.map((a) => a.index)).toEqual([0, 1]);
    expect(session.index).toBe(2);
    session.stop();
  });

  it("reconnects a dropped stream with a fresh token, resuming after the last event", async () => {
    const server = scripted([mark(0, "p1")]);
    const session = await started(server);
    const first = server.sources[0];
    first?.open();
    first?.emit("update", 1, whole({ ...viewAt(2), actions: [mark(1, "p2")] }));
    first?.fail();
    expect(first?.closed).toBe(true);
    expect(session.connected).toBe(false);
    await settle(300);
    expect(server.sources[1]?.url).toBe("/api/matches/m1/events?stream_token=st2&last_event_id=1");
    session.stop();
  });

  it("stops for good when the server ends the stream because the seat was lost", async () => {
    const server = scripted([mark(0, "p1")]);
    const session = await started(server);
    const first = server.sources[0];
    first?.open();
    first?.emit("end", 0, { code: "invalid-token", message: "the seat is lost", path: null });
    expect(first?.closed).toBe(true);
    expect(session.connected).toBe(false);
    expect(session.error?.code).toBe("invalid-token");
    await settle(300);
    expect(server.sources).toHaveLength(1);
    session.stop();
  });

  it("reconnects with a fresh token when the server ends the stream on a database fault", async () => {
    const server = scripted([mark(0, "p1")]);
    const session = await started(server);
    const first = server.sources[0];
    first?.emit("end", 0, { code: "storage-unavailable", message: "try later", path: null });
    expect(first?.closed).toBe(true);
    await settle(300);
    expect(server.sources).toHaveLength(2);
    expect(session.error).toBeNull();
    session.stop();
  });

  it("keeps a refused action's typed error and re-reads the match so the board stays consistent", async () => {
    const log = [mark(0, "p1")];
    const server = scripted(log).on("POST", /\/actions\/Mark$/, () => ({
      status: 409,
      body: { code: "stale-index", message: "moved on", path: "index", index: 3, missed: 2 },
    }));
    const session = await started(server);
    log.push(mark(1, "p2"), mark(2, "p1"));
    const accepted = await session.submit("Mark", { square: 4 }, { index: 1 });
    expect(accepted).toBe(false);
    expect(session.error?.code).toBe("stale-index");
    expect(session.index).toBe(3);
    expect(session.log.map((a) => a.index)).toEqual([0, 1, 2]);
    session.stop();
  });

  it("offers the server's legal actions and submits one as listed", async () => {
    const server = scripted([]).on("POST", /\/actions\/Mark$/, (call) => ({
      status: 200,
      body: { ...viewAt(1), actions: [{ ...(call.body as object), index: 0 }] },
    }));
    const session = await started(server);
    const [legal] = session.legalOf("Mark");
    expect(legal).toBeDefined();
    if (legal) await session.play(legal);
    const post = server.calls.find((call) => call.method === "POST" && call.url.endsWith("/actions/Mark"));
    expect(post?.body).toMatchObject({ type: "Mark", square: 8, player_id: "p1", game_id: "m1" });
    expect(session.log).toHaveLength(1);
    session.stop();
  });

  it("refuses to act for a spectator without calling the server", async () => {
    const server = scripted([]);
    const session = new MatchSession<View, Action, Request>(new TabletopClient({ fetch: server.fetch }), "m1", null, server.eventSource);
    expect(await session.submit("Mark", { square: 1 })).toBe(false);
    expect(session.error?.code).toBe("missing-token");
    expect(server.calls).toHaveLength(0);
  });

  it("shows a past position read-only: nothing to play, and a move is refused without calling the server", async () => {
    const server = scripted([mark(0, "p1"), mark(1, "p2")]);
    const live = await started(server);
    const before = server.calls.length;
    const past = MatchSession.past(live, { index: 1, head: 2, view: { marks: ["s0"] }, actions: [mark(0, "p1")] });
    expect(past.readOnly).toBe(true);
    expect(past.locked).toBe(true);
    expect(live.locked).toBe(false);
    expect(past.view).toEqual({ marks: ["s0"] });
    expect(past.log.map((a) => a.index)).toEqual([0]);
    expect(past.legalOf("Mark")).toEqual([]);
    expect(past.myTurn).toBe(false);
    expect(past.nameOf("p2")).toBe("Bob");
    expect(await past.submit("Mark", { square: 4 })).toBe(false);
    expect(await past.play({ type: "Mark", game_id: "m1", player_id: "p1", square: 4 })).toBe(false);
    expect(await past.undo()).toBe(false);
    await past.start();
    expect(server.calls).toHaveLength(before);
    expect(server.sources).toHaveLength(1); // the live session's stream only
    live.stop();
  });
});
