import { describe, expect, it } from "vitest";
import { FlagParseError, parseFlags } from "../../../core/cli/parse-flags.ts";
import type { FlagSpec } from "../../../core/cli/command.ts";

const specs: FlagSpec[] = [
  { name: "config-file", type: "strings", help: "" },
  { name: "config-dir", type: "strings", help: "" },
  { name: "once", type: "bool", help: "" },
  { name: "port", type: "int", help: "", default: 8558 },
  { name: "http-addr", type: "string", help: "", env: "CTS_ADDRESS", default: "http://localhost:8558" },
];

describe("parseFlags", () => {
  it("accepts single-dash, double-dash, = and separate values", () => {
    const parsed = parseFlags(["-config-file=a.hcl", "--config-file", "b.hcl", "-once", "--port=9000"], specs);
    expect(parsed.flags["config-file"]).toEqual(["a.hcl", "b.hcl"]);
    expect(parsed.flags["once"]).toBe(true);
    expect(parsed.flags["port"]).toBe(9000);
  });

  it("keeps -config-file and -config-dir occurrences in command-line order", () => {
    const parsed = parseFlags(["-config-dir=d1", "-config-file=f1", "-config-dir", "d2"], specs);
    expect(parsed.occurrences.map((o) => `${o.name}:${o.value}`)).toEqual(["config-dir:d1", "config-file:f1", "config-dir:d2"]);
  });

  it("stops at the first positional, as Go's flag package does", () => {
    const parsed = parseFlags(["-once", "task-a", "-port=1"], specs);
    expect(parsed.positionals).toEqual(["task-a", "-port=1"]);
    expect(parsed.flags["port"]).toBe(8558);
  });

  it("falls back to the environment, then to the default", () => {
    expect(parseFlags([], specs, { CTS_ADDRESS: "https://cts:8558" }).flags["http-addr"]).toBe("https://cts:8558");
    expect(parseFlags([], specs, {}).flags["http-addr"]).toBe("http://localhost:8558");
    expect(parseFlags(["-http-addr=http://x:1"], specs, { CTS_ADDRESS: "https://cts:8558" }).flags["http-addr"]).toBe("http://x:1");
  });

  it("reads -once=false as false", () => {
    expect(parseFlags(["-once=false"], specs).flags["once"]).toBe(false);
  });

  it("rejects unknown flags, bad integers, bad booleans and missing values", () => {
    expect(() => parseFlags(["-nope"], specs)).toThrow(new FlagParseError("flag provided but not defined: -nope"));
    expect(() => parseFlags(["-port=x"], specs)).toThrow(/invalid integer value "x" for flag -port/);
    expect(() => parseFlags(["-once=maybe"], specs)).toThrow(/invalid boolean value/);
    expect(() => parseFlags(["-http-addr"], specs)).toThrow(/flag needs an argument: -http-addr/);
  });
});
