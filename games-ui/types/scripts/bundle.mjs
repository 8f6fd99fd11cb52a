// Bundling the documents of one schemas folder into one self-contained schema (mirrors
// tabletop.schemas.bundle_folder): every document becomes a $defs entry named by its title,
// next to the documents' own $defs; the root has one property per document.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const schemasRoot = resolve(process.env.TABLETOP_SCHEMAS ?? join(packageRoot, "..", "..", "schemas"));

/** "tic-tac-toe" -> "TicTacToe" (as tabletop.schemas.game_title). */
export function gameTitle(name) {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join("");
}

/** "tic-tac-toe" -> "ticTacToe": the namespace a folder is re-exported under. */
export function namespaceOf(name) {
  const title = gameTitle(name);
  return title[0].toLowerCase() + title.slice(1);
}

/** The folders of the export: "common" and every game, each with its files. */
export function readIndex() {
  const index = JSON.parse(readFileSync(join(schemasRoot, "index.json"), "utf8"));
  const folders = { common: Object.keys(index.common.files) };
  for (const [name, game] of Object.entries(index.games)) folders[name] = Object.keys(game.files);
  return folders;
}

export function bundleFolder(folder, paths) {
  const title = folder === "common" ? "Common" : gameTitle(folder);
  const defs = {};
  const properties = {};
  const define = (name, schema) => {
    if (name in defs && !isDeepStrictEqual(defs[name], schema)) {
      throw new Error(`${title}: ${JSON.stringify(name)} names two different schemas`);
    }
    defs[name] = schema;
  };
  for (const path of [...paths].sort()) {
    const { $defs = {}, ...root } = JSON.parse(readFileSync(join(schemasRoot, path), "utf8"));
    for (const [name, schema] of Object.entries($defs)) define(name, schema);
    define(root.title, root);
    properties[path.slice(folder.length + 1).replace(/\.json$/, "")] = { $ref: `#/$defs/${root.title}` };
  }
  return {
    $defs: defs,
    additionalProperties: false,
    description: `Every document of ${title}, by its path (without .json).`,
    properties,
    required: Object.keys(properties).sort(),
    title: `${title}Documents`,
    type: "object",
  };
}
