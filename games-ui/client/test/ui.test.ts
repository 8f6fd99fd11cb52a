import { describe, expect, it } from "vitest";
import { defineGameUi } from "../src/ui.js";

type Move = { type: "Move"; index?: number | null; player_id: string; to: number };
type TimeExpired = { type: "TimeExpired"; index?: number | null; player_id: string; metadata?: { result: string; winning_player_ids?: string[] } | null };

const names = (id: string | null | undefined) => ({ p1: "Ann", p2: "Bob", p3: "Cat" })[id ?? ""] ?? String(id);
const seen: Move[] = [];
const ui = defineGameUi<unknown, Move | TimeExpired, { type: "Move" }>({
  game: "test",
  component: (() => {}) as never,
  describe(action, who) {
    seen.push(action); // only the game's own actions reach the game's describe
    return `${who(action.player_id)} moved to ${action.to}`;
  },
});

describe("defineGameUi", () => {
  it("describes a loss on time itself, naming the winners", () => {
    const lost = { type: "TimeExpired", index: 4, player_id: "p1", metadata: { result: "win", winning_player_ids: ["p2"] } };
    expect(ui.describe(lost, names)).toBe("Ann ran out of time: Bob wins");
    const many = { ...lost, metadata: { result: "win", winning_player_ids: ["p2", "p3"] } };
    expect(ui.describe(many, names)).toBe("Ann ran out of time: Bob and Cat win");
    const unknown = { ...lost, metadata: null }; // (recorded before its result was known)
    expect(ui.describe(unknown, names)).toBe("Ann ran out of time");
    expect(seen).toEqual([]);
  });

  it("hands the game's own actions to the game's describe", () => {
    const move = { type: "Move", index: 1, player_id: "p2", to: 3 };
    expect(ui.describe(move, names)).toBe("Bob moved to 3");
    expect(seen).toEqual([move]);
  });
});
