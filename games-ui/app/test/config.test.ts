import { describe, expect, it } from "vitest";
import { configOptions, configValues } from "../src/config.js";

// Shapes as pydantic exports them (schemas/<game>/config.json).
const goofspiel = {
  type: "object",
  additionalProperties: false,
  properties: {
    cards: { type: "integer", default: 13, minimum: 1, maximum: 52, description: "N: the cards 1..N." },
    tie_break: { $ref: "#/$defs/TieBreak", default: "first-in-order" },
    label: { anyOf: [{ type: "string" }, { type: "null" }], default: null },
    fast: { type: "boolean", default: false },
  },
  $defs: { TieBreak: { type: "string", enum: ["first-in-order", "last-in-order"] } },
};

describe("config options from a game's config schema", () => {
  it("renders each field by its type, resolving $ref and nullable unions", () => {
    const options = configOptions(goofspiel);
    expect(options.map((o) => [o.key, o.kind])).toEqual([
      ["cards", "integer"],
      ["tie_break", "enum"],
      ["label", "string"],
      ["fast", "boolean"],
    ]);
    expect(options[0]).toMatchObject({ default: 13, minimum: 1, maximum: 52, description: "N: the cards 1..N." });
    expect(options[1]?.choices).toEqual(["first-in-order", "last-in-order"]);
  });

  it("sends only the options changed from their defaults", () => {
    const options = configOptions(goofspiel);
    expect(configValues(options, { cards: 5, tie_break: "first-in-order", fast: false, label: "" })).toEqual({ cards: 5 });
    expect(configValues(options, {})).toEqual({});
  });

  it("shows nothing for a game without options", () => {
    expect(configOptions({ type: "object", properties: {}, additionalProperties: false })).toEqual([]);
  });
});
