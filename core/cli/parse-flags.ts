/**
 * @module Go-style flag parsing, as CTS's CLI does it: `-name=value`, `-name value`, `--name`,
 * boolean `-name` / `-name=false`, repeatable flags, parsing stops at the first positional.
 */
import type { FlagSpec, ParsedArgs } from "./command.ts";

export class FlagParseError extends Error {
  override readonly name = "FlagParseError";
}

type FlagValue = string | boolean | number | readonly string[] | undefined;

export type ParsedFlags = ParsedArgs;

export function parseFlags(
  argv: readonly string[],
  specs: readonly FlagSpec[],
  env: Readonly<Record<string, string | undefined>> = {},
): ParsedFlags {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const values: Record<string, FlagValue> = {};
  const given = new Set<string>();
  const occurrences: { name: string; value: string }[] = [];
  let index = 0;

  for (; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === "--") {
      index++;
      break;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    const body = arg.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq === -1 ? body : body.slice(0, eq);
    const spec = byName.get(name);
    if (!spec) throw new FlagParseError(`flag provided but not defined: -${name}`);
    let raw: string;
    if (eq !== -1) raw = body.slice(eq + 1);
    else if (spec.type === "bool") raw = "true";
    else {
      const next = argv[index + 1];
      if (next === undefined) throw new FlagParseError(`flag needs an argument: -${name}`);
      raw = next;
      index++;
    }
    values[name] = convert(spec, raw, values[name]);
    given.add(name);
    occurrences.push({ name, value: raw });
  }

  for (const spec of specs) {
    if (given.has(spec.name)) continue;
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== "") {
      values[spec.name] = convert(spec, fromEnv, undefined, `environment variable ${spec.env}`);
    } else if (spec.type === "strings") {
      values[spec.name] = [];
    } else {
      values[spec.name] = spec.default ?? (spec.type === "bool" ? false : undefined);
    }
  }

  return { flags: values, given, positionals: argv.slice(index), occurrences };
}

function convert(spec: FlagSpec, raw: string, previous: FlagValue, source = `flag -${spec.name}`): FlagValue {
  switch (spec.type) {
    case "string":
      return raw;
    case "strings":
      return [...((previous as readonly string[] | undefined) ?? []), raw];
    case "bool": {
      const lower = raw.toLowerCase();
      if (["true", "1", "t"].includes(lower)) return true;
      if (["false", "0", "f"].includes(lower)) return false;
      throw new FlagParseError(`invalid boolean value "${raw}" for ${source}`);
    }
    case "int": {
      if (!/^-?\d+$/.test(raw)) throw new FlagParseError(`invalid integer value "${raw}" for ${source}`);
      return Number(raw);
    }
  }
}
