/**
 * Conformance: Debian's python3-consul 0.7.1 (installed by sh scripts/setup-debian-python.sh consul python3-consul) runs
 * python-consul.py against the dev server: KV with cas, sessions/locks, a blocking KV get, health, and
 * the catalog nodes list the nodes condition watches (blocking, node-meta, filter).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../../harness/consul-dev-server.ts";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./python-consul.py", import.meta.url));
let server: TestConsulDevServer;

beforeAll(async () => {
  server = await startConsulDevServer();
});

afterAll(async () => {
  await server.stop();
});

it("python3-consul passes KV/cas, sessions, blocking get, health and catalog nodes against the dev server", async () => {
  // The system interpreter: pyenv's python3 on PATH does not have the Debian package.
  const { stdout } = await run("/usr/bin/python3", [script, String(server.port)], { timeout: 60_000 })
    .catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`python3-consul script failed (run sh scripts/setup-debian-python.sh consul python3-consul first):\n${
        error.stdout ?? ""}\n${error.stderr ?? error.message}`);
    });
  expect(stdout.trim().split("\n")).toEqual(["ok kv-cas", "ok sessions", "ok blocking-kv", "ok health", "ok catalog-nodes"]);
});
