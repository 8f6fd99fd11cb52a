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

const out = join(packageRoot, "dist");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const folders = readIndex();
const index = [];
for (const [folder, paths] of Object.entries(folders)) {
  const schema = adapt(bundleFolder(folder, paths));
  const source = await compile(schema, schema.title, {
    bannerComment: `/* Generated from schemas/${folder}/ by @tabletop/types (npm run generate); do not edit. */`,
    additionalProperties: false,
    declareExternallyReferenced: true,
    strictIndexSignatures: true,
    unreachableDefinitions: true,
    format: true,
  });
  writeFileSync(join(out, `${folder}.d.ts`), source);
  index.push(`export * as ${namespaceOf(folder)} from "./${folder}.js";`);
}
writeFileSync(join(out, "index.d.ts"), `${index.join("\n")}\n`);
console.log(`generated ${Object.keys(folders).length} declaration files under dist/`);
