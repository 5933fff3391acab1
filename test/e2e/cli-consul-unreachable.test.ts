/**
 * -once and -inspect fail fast when Consul cannot answer (CTS removed retries in these modes so a
 * CI job errors instead of hanging): exit 11, naming the task, the Consul address and the reason.
 * The daemon, by contrast, rides out outages forever (covered by the consul-client outage tests).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../../harness/run-cli.ts";

const stubModule = path.join(repoRoot, "test", "plugins", "driver-terraform", "modules", "stub");

async function writeConfig(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "cts-unreachable-"));
  const file = path.join(dir, "cts.hcl");
  await writeFile(file, `
working_dir = "${dir}/work"
consul {
  address = "127.0.0.1:1"
}
driver "terraform" {
  backend "local" {}
}
plugin "task-engine" {
  source  = "builtin:task-engine"
  options = { one_shot_consul_wait = "1s" }
}
task {
  name   = "web"
  module = "${stubModule}"
  condition "services" {
    names = ["web"]
  }
}
`);
  return file;
}

describe("Consul unreachable in one-shot modes", () => {
  for (const mode of ["-once", "-inspect"]) {
    it(`${mode} exits 11 naming the task, the address and the reason`, async () => {
      const config = await writeConfig();
      const result = await runCli("node", ["start", mode, `-config-file=${config}`], { timeoutMs: 60_000 });
      expect(result.code, result.stderr).toBe(11);
      expect(result.stderr).toMatch(
        /Cannot read task "web"'s data from Consul at http:\/\/127\.0\.0\.1:1 within 1s: .*(ECONNREFUSED|refused)/,
      );
    });
  }
});
