// Generates dist/<folder>.d.ts for every folder of schemas/ (common and each game) with
// json-schema-to-typescript, and dist/index.d.ts re-exporting each as a namespace.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";
import { bundleFolder, namespaceOf, packageRoot, readIndex } from "./bundle.mjs";

// Defaults beside an allOf (a field's default next to its $ref) only make the generator
// intersect the referenced type with the default's primitive type; TypeScript types carry no
// defaults, so drop them there.
//
// A closed object without properties (a config with no options) would come out as `{}`, which
// TypeScript reads as "any non-null value"; declare it as an object that has no keys instead.
function adapt(node) {
  if (Array.isArray(node)) return node.map(adapt);
  if (node === null || typeof node !== "object") return node;
  const result = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "default" && "allOf" in node) continue;
    result[key] = adapt(value);
  }
  const empty = node.type === "object" && node.additionalProperties === false;
  if (empty && Object.keys(node.properties ?? {}).length === 0) result.tsType = "{ [key: string]: never }";
  return result;
}

// Documents a client sends (requests, a match's config, the common Game) keep every field that has a
// default optional; documents the server sends (states, views, actions as recorded) always carry
// every field, so there a field with a default is required: UI code reads `view.total`, not
// `view.total ?? 0`. A definition reachable from both kinds of document keeps the request's reading.
const isInput = (folder, document) =>
  document === "config" || document === "request" || document.startsWith("requests/") || (folder === "common" && document === "game");

function refsIn(node, found) {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (node !== null && typeof node === "object") {
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/")) found.add(node.$ref.slice("#/$defs/".length));
    Object.values(node).forEach((value) => refsIn(value, found));
  }
  return found;
}

function reachable(defs, roots) {
  const seen = new Set();
  const todo = [...roots];
  while (todo.length) {
    const name = todo.pop();
    if (seen.has(name) || !(name in defs)) continue;
    seen.add(name);
    todo.push(...refsIn(defs[name], new Set()));
  }
  return seen;
}

function requireOutputDefaults(folder, bundle) {
  const rootOf = (document) => bundle.properties[document].$ref.slice("#/$defs/".length);
  const documents = Object.keys(bundle.properties);
  const inputs = reachable(bundle.$defs, documents.filter((d) => isInput(folder, d)).map(rootOf));
  const outputs = reachable(bundle.$defs, documents.filter((d) => !isInput(folder, d)).map(rootOf));
  for (const name of outputs) {
    const schema = bundle.$defs[name];
    if (inputs.has(name) || !schema.properties) continue;
    const defaulted = Object.entries(schema.properties).filter(([, field]) => "default" in field).map(([key]) => key);
    schema.required = [...new Set([...(schema.required ?? []), ...defaulted])];
  }
}

// A game with hidden information has a player view and a spectator view, the spectator's without
// some fields (another seat's hand). Declaring those as `field?: undefined` on the spectator's side
// lets code read `view.players[0].hand` from the union of both views without narrowing by hand.
function alignSpectatorViews(bundle) {
  for (const [name, schema] of Object.entries(bundle.$defs)) {
    const player = name.endsWith("SpectatorView") ? bundle.$defs[name.replace(/SpectatorView$/, "PlayerView")] : undefined;
    if (!player?.properties || !schema.properties) continue;
    for (const key of Object.keys(player.properties)) {
      if (!(key in schema.properties)) schema.properties[key] = { tsType: "undefined", description: "Not in a spectator's view." };
    }
  }
}

// `<Game>View`: what a seat or a spectator is sent, whichever views the game has (one view, or
// the union of the player's and the spectator's), so a UI names it the same way either way.
function viewAliases(folder, bundle) {
  if (folder === "common") return "";
  const title = bundle.title.replace(/Documents$/, "");
  const views = ["views/state", "views/player", "views/spectator"]
    .filter((document) => document in bundle.properties)
    .map((document) => bundle.properties[document].$ref.slice("#/$defs/".length));
  return `\n/** What a seat or a spectator of ${folder} is sent. */\nexport type ${title}View = ${views.join(" | ")};\n`;
}

const out = join(packageRoot, "dist");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const folders = readIndex();
const index = [];
for (const [folder, paths] of Object.entries(folders)) {
  const bundle = bundleFolder(folder, paths);
  requireOutputDefaults(folder, bundle);
  alignSpectatorViews(bundle);
  const schema = adapt(bundle);
  const compiled = await compile(schema, schema.title, {
    bannerComment: `/* Generated from schemas/${folder}/ by @tabletop/types (npm run generate); do not edit. */`,
    additionalProperties: false,
    declareExternallyReferenced: true,
    strictIndexSignatures: true,
    unreachableDefinitions: true,
    format: true,
  });
  const source = compiled + viewAliases(folder, bundle);
  writeFileSync(join(out, `${folder}.d.ts`), source);
  index.push(`export * as ${namespaceOf(folder)} from "./${folder}.js";`);
}
writeFileSync(join(out, "index.d.ts"), `${index.join("\n")}\n`);
console.log(`generated ${Object.keys(folders).length} declaration files under dist/`);
