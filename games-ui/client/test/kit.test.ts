// The UI kit's logic: names of cards, dice and cells, arrow-key moves, seat colours and initials,
// the turn banner's sentence and log lines.
import { describe, expect, it } from "vitest";
import {
  cardName,
  cellName,
  columnName,
  contrastRatio,
  dieName,
  diePips,
  initials,
  logLine,
  moveCell,
  rankName,
  SEAT_COLOURS,
  seatColour,
  turnText,
  type TurnFacts,
} from "../src/index.js";

describe("cards and dice", () => {
  it.each([
    ["Q", "spades", "queen of spades"],
    ["A", "hearts", "ace of hearts"],
    ["10", "diamonds", "ten of diamonds"],
    ["7", "clubs", "seven of clubs"],
  ] as const)("names %s of %s", (rank, suit, name) => {
    expect(cardName(rank, suit)).toBe(name);
  });

  it("names a card without a suit by its rank", () => {
    expect(cardName(7)).toBe("seven");
    expect(cardName(13)).toBe("13");
    expect(rankName("K")).toBe("king");
  });

  it("draws each face's pips and names it", () => {
    expect([1, 2, 3, 4, 5, 6].map((face) => diePips(face).length)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(diePips(0)).toEqual([]);
    expect(dieName(4)).toBe("die showing 4");
    expect(dieName(null)).toBe("die not rolled yet");
  });
});

describe("board cells", () => {
  it("names cells by column letter and row number from the top", () => {
    expect(cellName({ x: 0, y: 0 })).toBe("a1");
    expect(cellName({ x: 2, y: 1 })).toBe("c2");
    expect(columnName(25)).toBe("z");
    expect(columnName(26)).toBe("aa");
  });

  it.each([
    ["ArrowRight", { x: 2, y: 1 }],
    ["ArrowLeft", { x: 0, y: 1 }],
    ["ArrowUp", { x: 1, y: 0 }],
    ["ArrowDown", { x: 1, y: 2 }],
    ["Home", { x: 0, y: 1 }],
    ["End", { x: 2, y: 1 }],
    ["PageUp", { x: 1, y: 0 }],
    ["PageDown", { x: 1, y: 2 }],
  ])("moves from the centre with %s", (key, to) => {
    expect(moveCell({ x: 1, y: 1 }, key, 3, 3)).toEqual(to);
  });

  it("stops at the edges, jumps to the corners with Ctrl and ignores other keys", () => {
    expect(moveCell({ x: 0, y: 0 }, "ArrowLeft", 3, 3)).toEqual({ x: 0, y: 0 });
    expect(moveCell({ x: 2, y: 2 }, "ArrowDown", 3, 3)).toEqual({ x: 2, y: 2 });
    expect(moveCell({ x: 1, y: 1 }, "Home", 3, 3, true)).toEqual({ x: 0, y: 0 });
    expect(moveCell({ x: 1, y: 1 }, "End", 4, 3, true)).toEqual({ x: 3, y: 2 });
    expect(moveCell({ x: 1, y: 1 }, "Enter", 3, 3)).toBeNull();
    expect(moveCell({ x: 1, y: 1 }, "a", 3, 3)).toBeNull();
  });
});

describe("seats", () => {
  it.each(SEAT_COLOURS.map((colour) => [colour]))("white initials on %s have a contrast of at least 4.5:1", (colour) => {
    expect(contrastRatio("#ffffff", colour)).toBeGreaterThanOrEqual(4.5);
  });

  it("measures contrast as WCAG does", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#94a3b8", "#ffffff")).toBeCloseTo(2.56, 2); // the old log index grey
    expect(() => contrastRatio("white", "#000000")).toThrow("not a #rrggbb colour");
  });

  it("gives every seat a colour, cycling", () => {
    expect(seatColour(0)).toBe(SEAT_COLOURS[0]);
    expect(seatColour(SEAT_COLOURS.length + 1)).toBe(SEAT_COLOURS[1]);
    expect(seatColour(-1)).toBe(SEAT_COLOURS.at(-1));
  });

  it.each([
    ["Ada Lovelace", "AL"],
    ["ann", "AN"],
    ["p1", "P1"],
    ["Bot 2", "B2"],
    ["  ", "?"],
    ["émile zola", "ÉZ"],
  ])("initials of %j are %s", (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe("the turn banner", () => {
  const names: { [id: string]: string } = { p1: "Ann", p2: "Bob", p3: "Cy" };
  const facts = (over: Partial<TurnFacts>): TurnFacts => ({
    active: [],
    result: null,
    winners: [],
    me: "p1",
    canAct: false,
    nameOf: (id, you = true) => (you && id === "p1" ? "you" : (names[id] ?? id)),
    ...over,
  });

  it("says whose turn it is", () => {
    expect(turnText(facts({ active: ["p1"], canAct: true, hint: "Roll." }))).toBe("Your turn. Roll.");
    expect(turnText(facts({ active: ["p1", "p2"], canAct: true }))).toBe("Your turn (Bob too).");
    expect(turnText(facts({ active: ["p2", "p3"] }))).toBe("Waiting for Bob and Cy.");
    expect(turnText(facts({ active: ["p1"], canAct: false }))).toBe("Waiting…");
    expect(turnText(facts({ me: null, active: ["p1", "p2", "p3"] }))).toBe("Waiting for you, Bob and Cy.");
  });

  it("names the winners, or the draw", () => {
    expect(turnText(facts({ result: "win", winners: ["p2"] }))).toBe("Game over: Bob wins.");
    expect(turnText(facts({ result: "win", winners: ["p1", "p3"] }))).toBe("Game over: you win! (Ann and Cy)");
    expect(turnText(facts({ result: "win", winners: ["p2", "p3"] }))).toBe("Game over: Bob and Cy win.");
    expect(turnText(facts({ result: "draw" }))).toBe("Game over: a draw.");
    expect(turnText(facts({ result: "abandoned" }))).toBe("Game over: abandoned.");
  });
});

describe("log lines", () => {
  const describeIt = (action: { type: string }) => `did ${action.type}`;

  it("keeps the index, the actor and the words", () => {
    expect(logLine({ type: "Roll", index: 4, player_id: "p2", source: "player" }, 0, describeIt)).toEqual({
      index: 4,
      actor: "p2",
      text: "did Roll",
      system: false,
    });
  });

  it("marks the game's own actions as system lines", () => {
    expect(logLine({ type: "Deal", index: 0, player_id: null, source: "system" }, 0, describeIt).system).toBe(true);
    expect(logLine({ type: "Reveal" }, 7, describeIt)).toEqual({ index: 7, actor: null, text: "did Reveal", system: true });
  });
});
