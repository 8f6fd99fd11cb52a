// Applies the deltas of the match stream's `update` events (packages/server/API.md, "Deltas"): the
// server sends what changed in a perspective's document since an earlier event, and the client
// rebuilds the whole document. The base is never changed: unchanged parts are shared and every
// changed container is a fresh copy (so a Svelte `$state.raw` sees new references).

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type JsonObject = { [key: string]: Json };

/** A delta that does not fit its base: the stream resynchronises from a fresh snapshot. */
export class DeltaError extends Error {
  readonly code = "delta-does-not-apply";

  constructor(message: string) {
    super(`the delta does not apply: ${message}`);
    this.name = "DeltaError";
  }
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own data member (a key such as `__proto__` stays a plain member). */
function setOwn(target: JsonObject, key: string, value: Json): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function copyObject(source: JsonObject): JsonObject {
  const copy: JsonObject = {};
  for (const key of Object.keys(source)) setOwn(copy, key, source[key] as Json);
  return copy;
}

function isIndex(value: Json | undefined, size: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < size;
}

function setIn(value: Json, path: Json[], depth: number, leaf: Json): Json {
  if (depth === path.length) return leaf;
  const step = path[depth];
  if (isObject(value) && typeof step === "string" && Object.hasOwn(value, step)) {
    const copy = copyObject(value);
    setOwn(copy, step, setIn(value[step] as Json, path, depth + 1, leaf));
    return copy;
  }
  if (Array.isArray(value) && isIndex(step, value.length)) {
    const copy = [...value];
    copy[step] = setIn(value[step] as Json, path, depth + 1, leaf);
    return copy;
  }
  throw new DeltaError("a packed column outside the template");
}

function unpack(template: Json, columns: Json, rows: Json): Json[] {
  if (!Array.isArray(columns) || !Array.isArray(rows)) throw new DeltaError("a packed list without columns and rows");
  const paths = columns.map((column) => {
    if (!Array.isArray(column) || !column.every((step) => typeof step === "string" || Number.isInteger(step))) {
      throw new DeltaError("a packed column that is not a path");
    }
    return column;
  });
  return rows.map((row) => {
    if (!Array.isArray(row) || row.length !== paths.length) throw new DeltaError("a packed row of the wrong length");
    let item = template;
    paths.forEach((path, column) => {
      item = setIn(item, path, 0, row[column] as Json);
    });
    return item;
  });
}

function valueEntry(entry: Json): Json {
  if (Array.isArray(entry) && entry.length !== 1 && entry.length !== 3) throw new DeltaError("a new value that is not a value entry");
  return apply(null, entry);
}

function applyObject(before: JsonObject, delta: Json[]): JsonObject {
  const order = Object.keys(before).sort(); // UTF-16 code unit order, as the server sorts
  const after = copyObject(before);
  for (let at = 0; at < delta.length; at += 2) {
    const key = delta[at] as Json;
    const entry = delta[at + 1] as Json;
    if (typeof key === "string") {
      if (Object.hasOwn(before, key)) throw new DeltaError(`the new member ${JSON.stringify(key)} exists`);
      setOwn(after, key, valueEntry(entry));
      continue;
    }
    if (!isIndex(key, order.length)) throw new DeltaError(`${JSON.stringify(key)} is not a position below ${order.length}`);
    const name = order[key] as string;
    if (Array.isArray(entry) && entry.length === 0) delete after[name];
    else setOwn(after, name, apply(before[name] as Json, entry));
  }
  return after;
}

function applyList(before: Json[], delta: Json[]): Json[] {
  const after = [...before];
  let splices: Json | undefined;
  for (let at = 0; at < delta.length; at += 2) {
    const key = delta[at] as Json;
    const entry = delta[at + 1] as Json;
    if (key === "~") {
      splices = entry;
      continue;
    }
    if (!isIndex(key, before.length)) throw new DeltaError(`${JSON.stringify(key)} is not an index below ${before.length}`);
    if (Array.isArray(entry) && entry.length === 0) throw new DeltaError("a list item cannot be removed but by a splice");
    after[key] = apply(before[key] as Json, entry);
  }
  if (splices === undefined) return after;
  if (!Array.isArray(splices)) throw new DeltaError("'~' is not followed by a list of splices");
  let bound = 0;
  const checked: [number, number, Json[]][] = [];
  for (const splice of splices) {
    if (!Array.isArray(splice) || (splice.length !== 2 && splice.length !== 3)) {
      throw new DeltaError("a splice is [start, count] or [start, count, items]");
    }
    const [start, count] = splice;
    if (!Number.isInteger(start) || !Number.isInteger(count) || (start as number) < bound || (count as number) < 0) {
      throw new DeltaError("splices must be ascending and not overlap");
    }
    const from = start as number;
    const length = count as number;
    if (from + length > before.length) throw new DeltaError("a splice past the end of the list");
    const items = splice.length === 3 ? valueEntry(splice[2] as Json) : [];
    if (!Array.isArray(items)) throw new DeltaError("splice items must be a list");
    checked.push([from, length, items]);
    bound = from + length;
  }
  for (const [from, length, items] of checked.reverse()) after.splice(from, length, ...items);
  return after;
}

function apply(before: Json, entry: Json): Json {
  if (!Array.isArray(entry)) return entry;
  if (entry.length === 1) return entry[0] as Json;
  if (entry.length === 3) return unpack(entry[0] as Json, entry[1] as Json, entry[2] as Json);
  if (entry.length === 0 || entry.length % 2 === 1) throw new DeltaError(`an entry of ${entry.length} items`);
  if (isObject(before)) return applyObject(before, entry);
  if (Array.isArray(before)) return applyList(before, entry);
  throw new DeltaError("changes inside a scalar");
}

/**
 * The document `delta` makes of `before` (`before` is not changed).
 * @throws DeltaError when the delta is malformed or does not fit `before`.
 */
export function applyDelta(before: Json, delta: Json): Json {
  return apply(before, delta);
}
