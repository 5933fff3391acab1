/**
 * Differential test of the filter engine against answers recorded from the real go-bexpr v0.1.2
 * (the version Consul servers link; Debian's golang-github-hashicorp-go-bexpr-dev), evaluated on
 * ServiceEntry-shaped rows. fixtures/bexpr-v0.1.2-oracle.json holds the rows, each expression and
 * either the IDs of the matching rows or go-bexpr's error text (which Consul wraps as
 * `Failed to create boolean expression evaluator: <text>`). fixtures/bexpr-oracle/main.go is the
 * recorder (build steps in its header).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileFilter } from "../../../dev-servers/consul/src/bexpr/filter.ts";
import { SERVICE_ENTRY_SCHEMA } from "../../../dev-servers/consul/src/bexpr/schemas.ts";

interface Golden {
  readonly rows: { Service: { ID: string } }[];
  readonly cases: { expr: string; ids?: string[]; error?: string }[];
}

const golden = JSON.parse(
  readFileSync(new URL("./fixtures/bexpr-v0.1.2-oracle.json", import.meta.url), "utf8"),
) as Golden;

function evaluate(expr: string): { ids: string[] } | { error: string } {
  try {
    const predicate = compileFilter(expr, SERVICE_ENTRY_SCHEMA);
    return { ids: golden.rows.filter((row) => predicate(row)).map((row) => row.Service.ID) };
  } catch (error) {
    return { error: (error as Error).message.replace(/^Failed to create boolean expression evaluator: /, "") };
  }
}

describe("filters agree with go-bexpr v0.1.2", () => {
  it.each(golden.cases.map((c) => [c.expr, c] as const))("%s", (_expr, expected) => {
    expect(evaluate(expected.expr)).toEqual(expected.error !== undefined ? { error: expected.error } : { ids: expected.ids });
  });
});
