/**
 * @module `regexp` patterns are Go RE2, as in CTS (config/condition_*.go compile them with Go's
 * regexp.Compile) and in Consul's bexpr `matches`: RE2 syntax loads and matches, what RE2 refuses is
 * refused by the condition's plugin (its `validate` hook, run by the kernel) with the file, the field
 * and RE2's own message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, latest, recordingContext } from "../../../core/plugin-testkit/mod.ts";
import { catalogServicesConditionFactory } from "../../../plugins/consul-inputs/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { startConsulHarness, type ConsulHarness } from "../../plugins/conditions/helpers/consul-harness.ts";
import { loadFiles, ownerIssuesOf, removeConfigDirs } from "./config-dir.ts";
import { conditionSource } from "../../plugins/conditions/helpers/decoded-source.ts";

afterAll(removeConfigDirs);

const task = (condition: string, regexp: string) => `
task {
  name   = "t"
  module = "./m"
  condition "${condition}" {
    regexp = ${JSON.stringify(regexp)}
  }
}
`;

describe("config load", () => {
  // CTS accepts every RE2 spelling; JavaScript's RegExp refuses these.
  for (const pattern of ["(?i)^web", "(?P<name>x)", "\\pL", "[[:alpha:]]", "\\Aweb\\z", "(?s:a.b)"]) {
    it(`accepts RE2 ${pattern} in services and catalog-services conditions`, async () => {
      for (const condition of ["services", "catalog-services"]) {
        const { config } = await loadFiles({ "a.hcl": task(condition, pattern) });
        expect(config.tasks[0]!.condition).toMatchObject({ type: condition, regexp: pattern });
      }
    });
  }

  // CTS fails to start on these: RE2 has no lookaround, no backreferences, repeats up to 1000.
  for (const [pattern, why] of [
    ["(?=x)", "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"],
    ["(a)\\1", "error parsing regexp: invalid escape sequence: `\\1`"],
    ["a{1001}", "error parsing regexp: invalid repeat count: `{1001}`"],
  ] as const) {
    it(`rejects ${pattern} with RE2's message, the file and the field`, async () => {
      // The condition's plugin owns the rule; the kernel reports it as `validate` and `start` do.
      const issues = await ownerIssuesOf({ "a.hcl": task("catalog-services", pattern) });
      expect(issues).toEqual([{
        file: "a.hcl", path: "task[0].condition.catalog-services.regexp",
        message: `is not a valid RE2 regular expression: ${why}`,
      }]);
    });
  }
});

describe("matching", () => {
  let consul: ConsulHarness;
  beforeAll(async () => {
    consul = await startConsulHarness();
  });
  afterAll(async () => {
    await consul?.close();
  });

  it("a catalog-services condition matches with RE2 semantics against Consul", async () => {
    await consul.register({ node: "n1", id: "Web-1", name: "Web-café" });
    await consul.register({ node: "n1", id: "db-1", name: "db-42" });
    const ctx = recordingContext(consul.watcher);
    // (?i) folds case; \pL is any Unicode letter, so "é" matches and the digits do not.
    const source = conditionSource(catalogServicesConditionFactory, { regexp: "(?i)^web-\\pL+$" }, "t");
    await source.start(ctx);
    await eventually(() => latest(ctx, "catalog_services") !== undefined, "the catalog to render");
    expect(Object.keys(latest(ctx, "catalog_services") as object)).toEqual(["Web-café"]);
    source.stop();
  });
});

describe("the embedded Consul's bexpr `matches`", () => {
  let server: TestConsulDevServer;
  beforeAll(async () => {
    server = await startConsulDevServer();
    for (const name of ["WEB", "api"]) {
      const body = { ID: name, Name: name, Port: 80 };
      const response = await fetch(`${server.url}/v1/agent/service/register`, { method: "PUT", body: JSON.stringify(body) });
      expect(response.status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("takes RE2 syntax as Consul (Go regexp) does", async () => {
    const filter = encodeURIComponent(`Service matches "(?i)^web$"`);
    const response = await fetch(`${server.url}/v1/agent/services?filter=${filter}`);
    expect(response.status).toBe(200);
    expect(Object.keys(await response.json() as object)).toEqual(["WEB"]);
  });

  it("refuses a lookahead as Consul does", async () => {
    const filter = encodeURIComponent(`Service matches "^(?=w)"`);
    const response = await fetch(`${server.url}/v1/agent/services?filter=${filter}`);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain("invalid or unsupported Perl syntax");
  });
});
