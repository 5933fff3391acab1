/**
 * The real `cts-runtime consul-dev` process on both runtimes (Deno from the source tree, Node from
 * dist/), used by npm `consul`: KV, a blocking read answered on change, and a clean SIGTERM stop.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import Consul from "consul";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot, type Runtime, spawnCli } from "../../../harness/run-cli.ts";

let child: ChildProcess | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

function startCli(runtime: Runtime): Promise<{ url: URL; output: () => string }> {
  child = spawnCli(runtime, ["consul-dev", "-http-addr=127.0.0.1:0", "-node=cli-node"]);
  let stdout = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  return new Promise((resolve, reject) => {
    child!.on("exit", (code) => reject(new Error(`consul-dev exited early (${code}): ${stdout}`)));
    child!.stdout!.on("data", () => {
      const match = /HTTP: (\S+)/.exec(stdout);
      if (match) resolve({ url: new URL(match[1]!), output: () => stdout });
    });
  });
}

const runtimes: Runtime[] = existsSync(join(repoRoot, "dist", "main.js")) ? ["deno", "node"] : ["deno"];

describe.each(runtimes)("consul-dev on %s", (runtime) => {
  it("serves npm consul, answers a blocking read on change, and stops on SIGTERM", { timeout: 60_000 }, async () => {
    const { url, output } = await startCli(runtime);
    const consul = new Consul({ host: url.hostname, port: Number(url.port) });
    try {
      await consul.kv.set("cli/key", "one");
      const first = await consul.kv.get("cli/key") as { ModifyIndex: number };
      const blocked = (consul.kv.get as (o: object) => Promise<{ Value: string }>)({
        key: "cli/key", index: String(first.ModifyIndex), wait: "30s",
      });
      await consul.kv.set("cli/key", "two");
      expect((await blocked).Value).toBe("two");
      const self = await consul.agent.self() as { Config: { NodeName: string } };
      expect(self.Config.NodeName).toBe("cli-node");
    } finally {
      consul.destroy();
    }
    const exited = new Promise<number | null>((resolve) => child!.once("exit", resolve));
    child!.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output()).toMatch(/Caught SIGTERM, shutting down/);
  });
});
