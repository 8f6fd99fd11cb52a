import { describe, expect, it } from "vitest";
import { applyDelta, DeltaError, type Json } from "../src/index.js";
// Made by tests/server/events/test_delta.py (the server's own deltas): both sides agree. Read as
// text and parsed here: a JSON module would turn a "__proto__" member into a prototype.
import text from "./delta-vectors.json?raw";

interface Vectors {
  applies: { before: Json; after: Json; delta: Json }[];
  refused: { before: Json; delta: Json }[];
}
const { applies, refused } = JSON.parse(text) as Vectors;

describe("applyDelta", () => {
  it("rebuilds every document the server's deltas describe, leaving the base as it was", () => {
    expect(applies.length).toBeGreaterThan(100);
    for (const { before, after, delta } of applies) {
      const kept = JSON.stringify(before);
      expect(applyDelta(before, delta)).toEqual(after);
      expect(JSON.stringify(before)).toBe(kept);
    }
  });

  it("refuses every delta that does not fit its base with a DeltaError", () => {
    for (const { before, delta } of refused) {
      expect(() => applyDelta(before, delta)).toThrow(DeltaError);
    }
  });

  it("names members by their position among the base's keys in UTF-16 order", () => {
    const before: Json = { "\u{1f600}": 1, "\ue000": 2, b: 3 };
    // sorted: "b" (0x62), then "\u{1f600}" (0xd83d 0xde00), then "\ue000"
    expect(applyDelta(before, [0, 4, 1, 5, 2, []])).toEqual({ b: 4, "\u{1f600}": 5 });
  });

  it("unpacks a list of same-shaped objects from a template and its varying leaves", () => {
    const template = { type: "PlaceMark", player_id: "p1", square: { x: 0, y: 0 } };
    const after = applyDelta({ legal: [] }, [0, [template, [["square", "x"], ["square", "y"]], [[0, 0], [2, 1]]]]);
    expect(after).toEqual({
      legal: [
        { type: "PlaceMark", player_id: "p1", square: { x: 0, y: 0 } },
        { type: "PlaceMark", player_id: "p1", square: { x: 2, y: 1 } },
      ],
    });
    expect(template.square).toEqual({ x: 0, y: 0 }); // the template itself is not changed
  });

  it("shares what did not change and copies what did", () => {
    const before = { board: [["a"], ["b"]], players: [{ name: "Ann" }] };
    const after = applyDelta(before, [0, [1, [0, "c"]]]) as typeof before;
    expect(after.board[1]).toEqual(["c"]);
    expect(after.board[0]).toBe(before.board[0]);
    expect(after.players).toBe(before.players);
    expect(before.board[1]).toEqual(["b"]);
  });

  it("keeps a member named __proto__ a plain member", () => {
    const after = applyDelta({ a: 1 }, ["__proto__", [{ polluted: true }]]) as { [key: string]: Json };
    expect(Object.keys(after)).toEqual(["a", "__proto__"]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
