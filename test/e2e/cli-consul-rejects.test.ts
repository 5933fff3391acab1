/**
 * A Consul answer that is a permanent error of the task's query fails -once and -inspect at once
 * (exit 11, the task's name and Consul's own message), instead of being retried as an outage until
 * `one_shot_consul_wait`. CTS: hcat's view never retries a 400 (`view.go`), so CTS's once mode
 * ends with the error; cts-runtime also fails fast on the two 500 texts that no retry changes
 * (unknown datacenter, filter that does not compile). Answers come from the embedded Consul
 * server, which answers these as Consul CE does.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { repoRoot, runCli } from "../../harness/run-cli.ts";

const stubModule = path.join(repoRoot, "test", "plugins", "driver-terraform", "modules", "stub");

const cases = [
  { name: "unknown datacenter", field: `datacenter = "dc9"`, expect: /500 No path to datacenter/ },
  {
    name: "namespace on Consul CE",
    field: `namespace = "team"`,
    expect: /400 Invalid query parameter: "ns" - Namespaces are a Consul Enterprise feature/,
  },
  {
    name: "filter Consul cannot compile",
    field: `filter = "Service.Bogus == \\"x\\""`,
    expect: /500 Failed to create boolean expression evaluator: Selector "Service.Bogus" is not valid/,
  },
];

describe("permanent Consul query errors in one-shot modes", () => {
  let consul: TestConsulDevServer;
  beforeAll(async () => {
    consul = await startConsulDevServer();
  });
  afterAll(async () => {
    await consul?.stop();
  });

  async function writeConfig(field: string): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), "cts-rejects-"));
    const file = path.join(dir, "cts.hcl");
    // A wait far beyond the CLI timeout below: only failing fast can pass.
    await writeFile(file, `
working_dir = "${dir}/work"
consul {
  address = "${consul.address}"
}
driver "terraform" {
  backend "local" {}
}
plugin "task-engine" {
  source  = "builtin:task-engine"
  options = { one_shot_consul_wait = "10m" }
}
task {
  name   = "edge"
  module = "${stubModule}"
  condition "services" {
    names = ["web"]
    ${field}
  }
}
`);
    return file;
  }

  for (const testCase of cases) {
    it(`-once exits 11 at once on ${testCase.name}, naming the task and Consul's message`, async () => {
      const config = await writeConfig(testCase.field);
      const result = await runCli("node", ["start", "-once", `-config-file=${config}`], { timeoutMs: 45_000 });
      expect(result.code, result.stderr).toBe(11);
      expect(result.stderr).toMatch(/==> Error: Cannot run task "edge": /);
      expect(result.stderr).toMatch(testCase.expect);
      expect(result.stderr).not.toContain("Consul still unreachable");
    });
  }

  it("-inspect exits 11 at once on an unknown datacenter", async () => {
    const config = await writeConfig(cases[0]!.field);
    const result = await runCli("node", ["start", "-inspect", `-config-file=${config}`], { timeoutMs: 45_000 });
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toMatch(/==> Error: Cannot inspect task "edge": .*500 No path to datacenter/);
  });
});
