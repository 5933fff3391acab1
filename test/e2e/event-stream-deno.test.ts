/**
 * Smoke test of the event stream and the status page on Deno (`deno run -A main.ts start`, where
 * the kernel serves HTTP with Deno.serve): a resumed stream replays the start-up leadership event,
 * the page is served, and SIGTERM ends the daemon (exit 0) while a stream is open, and the stream
 * sees its end. Beyond CTS.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../core/plugin-testkit/src/eventually.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../helpers/consul-dev-server.ts";
import { freePort } from "../helpers/free-port.ts";
import { spawnCli } from "../helpers/run-cli.ts";
import { SseReader } from "../helpers/sse-reader.ts";

describe("event stream on Deno", () => {
  const dir = mkdtempSync(join(tmpdir(), "cts-events-deno-"));
  let consul: TestConsulDevServer;
  let daemon: ChildProcess;
  let url: string;
  let logs = "";

  beforeAll(async () => {
    consul = await startConsulDevServer();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    writeFileSync(join(dir, "cts.hcl"), `id = "deno-events"
port = ${port}
consul {
  address = "${consul.address}"
  service_registration {
    enabled = false
  }
}
`);
    daemon = spawnCli("deno", ["start", `-config-file=${join(dir, "cts.hcl")}`], { cwd: dir });
    daemon.stdout!.on("data", (chunk) => (logs += chunk));
    daemon.stderr!.on("data", (chunk) => (logs += chunk));
    await eventually(() => fetch(`${url}/v1/health`).then((r) => r.ok, () => false), "the daemon's API", 60_000, 100)
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${logs}`);
      });
  }, 90_000);

  afterAll(async () => {
    if (daemon && daemon.exitCode === null && daemon.signalCode === null) daemon.kill("SIGKILL");
    await consul?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("streams the start-up leadership on resume, serves /ui/, and stops on SIGTERM with a stream open", async () => {
    const reader = await SseReader.open(`${url}/v1/events?last_event_id=0`);
    expect(reader.response!.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await reader.waitFor("ready", (r) => r.events("ready").length === 1, 20_000);
    expect(reader.events("leadership").map((e) => e.data)).toEqual([
      expect.objectContaining({ instance_id: "deno-events", is_leader: true }),
    ]);
    const page = await fetch(`${url}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'self'/);
    expect(await page.text()).toContain("<main");

    const exited = new Promise<number | null>((resolve) => daemon.once("exit", (code) => resolve(code)));
    daemon.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit 30 s after SIGTERM\n${logs}`)), 30_000)),
    ]);
    expect(code, logs).toBe(0);
    await reader.waitFor("the stream to end", (r) => r.ended !== undefined, 10_000);
  }, 90_000);
});
