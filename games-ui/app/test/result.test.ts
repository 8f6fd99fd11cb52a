import { describe, expect, it } from "vitest";
import { resultText } from "../src/result.js";

const names: { [id: string]: string } = { p1: "Ann", p2: "Bob", p3: "Cat" };
const nameOf = (id: string) => names[id] ?? id;

describe("resultText", () => {
  it.each([
    [null, [], null, null],
    ["win", ["p1"], null, "Game over: Ann wins."],
    ["win", ["p1"], "p1", "Game over: you win! (Ann)"],
    ["win", ["p1", "p3"], "p2", "Game over: Ann and Cat win."],
    ["draw", [], "p1", "Game over: a draw."],
    ["abandoned", [], null, "Game over: abandoned."],
  ])("%s %j seen by %s: %s", (result, winners, me, text) => {
    expect(resultText({ result, winners, me, nameOf })).toBe(text);
  });
});

describe("resultText after a loss on time", () => {
  it.each([
    ["p2", null, "Game over: Ann wins. Bob ran out of time."],
    ["p2", "p2", "Game over: Ann wins. You ran out of time."],
    ["p2", "p1", "Game over: you win! (Ann) Bob ran out of time."],
  ])("%s lost, seen by %s: %s", (lost, me, text) => {
    expect(resultText({ result: "win", winners: ["p1"], me, nameOf, lostOnTime: lost })).toBe(text);
  });
});
