/** The snapshot file: written after changes and at stop, loaded at start (data, sessions, checks, indexes). */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startConsulDevServer } from "../../../harness/consul-dev-server.ts";
import { client } from "./http-client.ts";

const dir = mkdtempSync(join(tmpdir(), "consul-snap-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fileText = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

describe("snapshot", () => {
  it("persists KV (exact flags), sessions and locks, services, agent checks and indexes across restarts", async () => {
    const snapshotPath = join(dir, "state.json");
    const server = await startConsulDevServer({ snapshotPath });
    const http = client(server.url);
    try {
      const session = ((await http.put("/v1/session/create", { TTL: "60s", LockDelay: "0s" })).body as { ID: string }).ID;
      await http.put(`/v1/kv/snap/lock?acquire=${session}&flags=3304740253564472344`, "held");
      await http.put("/v1/agent/service/register", { Name: "snap-web", Port: 1, Check: { TTL: "1h", Status: "passing" } });
      // written shortly after the change, without a stop
      while (!fileText(snapshotPath).includes("snap/lock")) await new Promise((r) => setTimeout(r, 20));

      const kvBefore = await http.get("/v1/kv/snap/lock");
      const healthBefore = await http.get("/v1/health/service/snap-web");
      await server.restart();

      const kvAfter = await http.get("/v1/kv/snap/lock");
      expect(kvAfter.text).toBe(kvBefore.text);
      expect(kvAfter.text).toContain("\"Flags\":3304740253564472344");
      expect(kvAfter.index).toBe(kvBefore.index);
      expect(((await http.get(`/v1/session/info/${session}`)).body as unknown[])).toHaveLength(1);
      const healthAfter = await http.get("/v1/health/service/snap-web?passing");
      expect(healthAfter.body).toHaveLength(1);
      expect(healthAfter.index).toBe(healthBefore.index);
      // the TTL check is still live on the agent after the restart
      expect((await http.put("/v1/agent/check/fail/service:snap-web")).status).toBe(200);
      expect((await http.get("/v1/health/service/snap-web?passing")).body).toEqual([]);
      // new writes continue above every earlier index
      await http.put("/v1/kv/snap/next", "x");
      expect((await http.get("/v1/kv/snap/next")).index).toBeGreaterThan(healthBefore.index);
    } finally {
      await server.stop();
    }
    // the stop flushed the last change
    expect(fileText(snapshotPath)).toContain("snap/next");
  });

  it("starts empty when the file does not exist yet, and refuses a corrupt file", async () => {
    const fresh = await startConsulDevServer({ snapshotPath: join(dir, "new.json") });
    expect((await client(fresh.url).get("/v1/kv/?recurse")).status).toBe(404);
    await fresh.stop();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(dir, "bad.json"), "{nope");
    await expect(startConsulDevServer({ snapshotPath: join(dir, "bad.json") })).rejects.toThrow(/Cannot load Consul dev snapshot/);
  });
});

describe("start failures", () => {
  it("reports a busy port and keeps the node ID of a snapshot", async () => {
    const snapshotPath = join(dir, "ids.json");
    const first = await startConsulDevServer({ snapshotPath });
    const id = ((await client(first.url).get("/v1/agent/self")).body as { Config: { NodeID: string } }).Config.NodeID;
    await expect(startConsulDevServer({ port: first.port })).rejects.toThrow();
    await first.restart();
    const self = (await client(first.url).get("/v1/agent/self")).body as { Config: { NodeID: string } };
    const node = (await client(first.url).get(`/v1/catalog/node/${first.node}`)).body as { Node: { ID: string } };
    expect(self.Config.NodeID).toBe(id);
    expect(node.Node.ID).toBe(id);
    await first.stop();
  });
});
