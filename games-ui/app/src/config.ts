// Config options rendered from a game's config schema (JSON Schema of its pydantic config model).
import type { JsonSchema } from "@tabletop/client";

export type OptionKind = "boolean" | "integer" | "number" | "enum" | "string";

export interface ConfigOption {
  key: string;
  kind: OptionKind;
  title: string;
  description: string;
  default: unknown;
  minimum: number | undefined;
  maximum: number | undefined;
  choices: unknown[];
  required: boolean;
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let depth = 0; depth < 10; depth += 1) {
    if (current.$ref) {
      const name = current.$ref.split("/").at(-1) ?? "";
      current = { ...root.$defs?.[name], ...current, $ref: undefined };
      continue;
    }
    const options = current.anyOf ?? current.oneOf;
    if (options) {
      const concrete = options.find((option) => option.type !== "null");
      if (!concrete) return current;
      current = { ...concrete, ...current, anyOf: undefined, oneOf: undefined };
      continue;
    }
    if (current.allOf?.length === 1 && current.allOf[0]) {
      current = { ...current.allOf[0], ...current, allOf: undefined };
      continue;
    }
    return current;
  }
  return current;
}

function kindOf(schema: JsonSchema): OptionKind {
  if (schema.enum) return "enum";
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "boolean" || type === "integer" || type === "number") return type;
  return "string";
}

/** The options a create form shows for a config schema, in declaration order. */
export function configOptions(schema: JsonSchema): ConfigOption[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, raw]) => {
    const field = resolve(raw, schema);
    return {
      key,
      kind: kindOf(field),
      title: field.title ?? key,
      description: field.description ?? raw.description ?? "",
      default: raw.default ?? field.default,
      minimum: field.minimum,
      maximum: field.maximum,
      choices: field.enum ?? [],
      required: required.has(key),
    };
  });
}

/** The config to send: the options the user changed from their defaults (and every required one). */
export function configValues(options: ConfigOption[], values: { [key: string]: unknown }): { [key: string]: unknown } {
  const config: { [key: string]: unknown } = {};
  for (const option of options) {
    const value = values[option.key];
    if (value === undefined || value === "") continue;
    if (option.required || value !== option.default) config[option.key] = value;
  }
  return config;
}
