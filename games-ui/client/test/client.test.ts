import { describe, expect, it } from "vitest";
import type { TicTacToeActionRequest } from "@tabletop/types/tic-tac-toe";
import { ApiError, TabletopClient } from "../src/index.js";
import { FakeServer } from "./fakes.js";

describe("TabletopClient", () => {
  it("fills the id, game and player of a typed action body and pins the index", async () => {
    const server = new FakeServer().on("POST", /\/actions\/PlaceMark$/, () => ({ status: 200, body: { actions: [] } }));
    const client = new TabletopClient({ fetch: server.fetch });
    await client.submit<TicTacToeActionRequest, "PlaceMark", unknown, unknown, unknown>(
      "m1",
      { playerId: "p2", token: "secret" },
      "PlaceMark",
      { square: { x: 1, y: 2 } },
      { index: 3, id: "a7" },
    );
    const [call] = server.calls;
    expect(call?.url).toBe("/api/matches/m1/actions/PlaceMark");
    expect(call?.headers.Authorization).toBe("Bearer secret");
    expect(call?.body).toEqual({ square: { x: 1, y: 2 }, id: "a7", game_id: "m1", type: "PlaceMark", player_id: "p2", index: 3 });
  });

  it("rejects with the server's typed error, stale-index details included", async () => {
    const server = new FakeServer().on("POST", /\/actions\//, () => ({
      status: 409,
      body: { code: "stale-index", message: "action expects index 0, but 2 actions are recorded", path: "index", index: 2, missed: 2 },
    }));
    const client = new TabletopClient({ fetch: server.fetch });
    const error = await client
      .submit<TicTacToeActionRequest, "PlaceMark", unknown, unknown, unknown>("m1", { playerId: "p1", token: "t" }, "PlaceMark", {
        square: { x: 0, y: 0 },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: "stale-index", path: "index", index: 2, missed: 2, isRuleViolation: false });
  });

  it("turns a response that is not the error shape into bad-response, and no answer into network-error", async () => {
    const client = new TabletopClient({ fetch: async () => new Response("<html>oops</html>", { status: 502 }) });
    await expect(client.listGames()).rejects.toMatchObject({ code: "bad-response", status: 502 });
    const offline = new TabletopClient({
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    await expect(offline.listGames()).rejects.toMatchObject({ code: "network-error", status: 0 });
  });

  it("sends no token for a spectator and resumes the stream after the last event id", () => {
    const client = new TabletopClient({ baseUrl: "http://host/api/" });
    expect(client.eventsUrl("m 1", "st", 4)).toBe("http://host/api/matches/m%201/events?stream_token=st&last_event_id=4");
    expect(client.eventsUrl("m1", "st", null)).toBe("http://host/api/matches/m1/events?stream_token=st");
  });

  it("sends every creation and claim with an idempotency key, and a lost answer again with the same key", async () => {
    const server = new FakeServer();
    let lost = 1;
    const flaky: typeof fetch = async (input, init) => {
      const answer = await server.fetch(input, init);
      if (lost > 0) {
        lost -= 1;
        throw new TypeError("connection reset"); // the server committed, the answer was lost
      }
      return answer;
    };
    server.on("POST", /\/matches$/, () => ({ status: 201, body: { id: "m1", creator_token: "c", invites: [] } }));
    server.on("POST", /\/seats\/p2$/, () => ({ status: 201, body: { player_id: "p2", token: "t" } }));
    const client = new TabletopClient({ fetch: flaky });
    const created = await client.createMatch({ game: "tic-tac-toe", seats: [{}, {}], visibility: "private" });
    expect(created.creator_token).toBe("c");
    const [first, retry] = server.calls;
    expect(first?.headers["Idempotency-Key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry?.headers["Idempotency-Key"]).toBe(first?.headers["Idempotency-Key"]);
    expect(retry?.body).toEqual(first?.body);
    lost = 1;
    await client.join("m1", "p2", { invite: "secret", name: "Bob" });
    const [, , claim, claimRetry] = server.calls;
    expect(claim?.body).toEqual({ name: "Bob", invite: "secret" });
    expect(claimRetry?.headers["Idempotency-Key"]).toBe(claim?.headers["Idempotency-Key"]);
    expect(claim?.headers["Idempotency-Key"]).not.toBe(first?.headers["Idempotency-Key"]);
  });

  it("sends a lost action again with the same id, and gives up after a few tries", async () => {
    const server = new FakeServer().on("POST", /\/actions\/PlaceMark$/, () => ({ status: 200, body: { actions: [] } }));
    const client = new TabletopClient({
      fetch: async (input, init) => {
        await server.fetch(input, init);
        throw new TypeError("connection reset");
      },
    });
    const error = await client
      .submit<TicTacToeActionRequest, "PlaceMark", unknown, unknown, unknown>("m1", { playerId: "p1", token: "t" }, "PlaceMark", {
        square: { x: 0, y: 0 },
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "network-error" });
    const ids = server.calls.map((call) => (call.body as { id: string }).id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });
});
