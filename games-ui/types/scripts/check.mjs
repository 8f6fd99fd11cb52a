// Checks the generated declarations and the fixtures:
// 1. every declared name is a type name of the schemas (no invented `Type1` aliases) and no
//    interface is open (`[k: string]: unknown`): requests and outputs alike are closed, which is
//    what the breaking-change guard (tabletop.schemas._compare) assumes of old clients, so it
//    calls any field added to an output document (state, views, actions as sent) major;
// 2. every game has a recorded fixture, and tsc accepts the good fixtures;
// 3. tsc rejects fixtures/bad/*.ts with exactly the errors marked `expect-error TSnnnn`.
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { bundleFolder, packageRoot, readIndex } from "./bundle.mjs";

const failures = [];
const fail = (message) => failures.push(message);

const folders = readIndex();
for (const [folder, paths] of Object.entries(folders)) {
  const bundle = bundleFolder(folder, paths);
  const names = new Set([bundle.title, ...Object.keys(bundle.$defs), bundle.title.replace(/Documents$/, "View")]);
  const source = readFileSync(join(packageRoot, "dist", `${folder}.d.ts`), "utf8");
  for (const [, name] of source.matchAll(/^export (?:type|interface) (\w+)/gm)) {
    if (!names.has(name)) fail(`dist/${folder}.d.ts declares ${name}, which no schema names`);
  }
  if (source.includes("[k: string]: unknown")) fail(`dist/${folder}.d.ts has an open interface`);
  if (folder !== "common" && !existsSync(join(packageRoot, "fixtures", "recorded", `${folder}.ts`))) {
    fail(`no recorded fixture for ${folder}: run tabletop schemas fixtures --out fixtures/recorded`);
  }
}

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc"); // hoisted by the workspace
function typecheck(project) {
  try {
    execFileSync(process.execPath, [tsc, "-p", project, "--pretty", "false"], { cwd: packageRoot, encoding: "utf8" });
    return { ok: true, output: "" };
  } catch (error) {
    return { ok: false, output: `${error.stdout ?? ""}${error.stderr ?? ""}` };
  }
}

const good = typecheck("tsconfig.json");
if (!good.ok) fail(`tsc rejected the good fixtures:\n${good.output}`);

const bad = typecheck("tsconfig.bad.json");
if (bad.ok) fail("tsc accepted fixtures/bad, which must not compile");
const reported = new Set();
for (const [, file, line, code] of bad.output.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+)/gm)) {
  reported.add(`${file}:${line}:${code}`);
}
const expected = new Set();
for (const name of readdirSync(join(packageRoot, "fixtures", "bad"))) {
  const file = `fixtures/bad/${name}`;
  readFileSync(join(packageRoot, file), "utf8")
    .split("\n")
    .forEach((text, index) => {
      const marker = text.match(/expect-error (TS\d+)/);
      if (marker) expected.add(`${file}:${index + 1}:${marker[1]}`);
    });
}
for (const error of expected) if (!reported.has(error)) fail(`expected error not reported: ${error}`);
for (const error of reported) if (!expected.has(error)) fail(`unexpected error: ${error}\n${bad.output}`);

if (failures.length) {
  console.error(failures.map((f) => `- ${f}`).join("\n"));
  process.exit(1);
}
console.log(
  `types ok: ${Object.keys(folders).length} declaration files, good fixtures compile, ` +
    `${expected.size} deliberate errors in fixtures/bad all reported`,
);
