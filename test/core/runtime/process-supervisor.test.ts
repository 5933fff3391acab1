/**
 * The supervisor under every child command: when cts-runtime dies by SIGKILL (no exit hook runs), the
 * commands it started die too, on Node and on Deno: one that ends on SIGTERM, one that ignores SIGTERM
 * (SIGKILLed after the grace period), and a grandchild its command left running (the process group).
 * CTS gets this from Linux's parent-death signal on its Terraform child; an orphaned apply would keep
 * the state lock (issue 11).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliCommand, repoRoot, type Runtime } from "../../../harness/run-cli.ts";

const holderSource = join(repoRoot, "test", "fixtures", "process-holder", "holder.ts");
const tmp = mkdtempSync(join(tmpdir(), "cts-supervisor-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Node 20 cannot run .ts: the holder is bundled with the rolldown vitest ships (as the HA tests do). */
async function bundleHolder(): Promise<string> {
  const out = join(tmp, "holder.mjs");
  const script = `import { build } from "rolldown";
await build({ input: ${JSON.stringify(holderSource)}, platform: "node", external: [/^node:/], write: true,
  logLevel: "silent", output: { file: ${JSON.stringify(out)}, format: "esm" } });`;
  await new Promise<void>((resolve, reject) => {
    execFile("node", ["--input-type=module", "-e", script], { cwd: repoRoot }, (error, _stdout, stderr) =>
      error ? reject(new Error(`Cannot bundle the holder: ${stderr || error.message}`)) : resolve());
  });
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const runtime of ["node", "deno"] as Runtime[]) {
  describe(`supervised commands on ${runtime}`, () => {
    it("die with the daemon when it is SIGKILLed, including a TERM-ignoring command and a grandchild", async () => {
      const dir = mkdtempSync(join(tmp, `${runtime}-`));
      const deno = cliCommand("deno", []).file;
      const holder = runtime === "node"
        ? spawn(process.execPath, [await bundleHolder(), dir], { stdio: ["ignore", "pipe", "inherit"] })
        : spawn(deno, ["run", "-A", "-q", holderSource, dir], { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
      let output = "";
      holder.stdout!.on("data", (chunk) => (output += chunk));
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      try {
        await until("the holder's commands to start", () => output.includes("ready"), 30_000);
      } catch (error) {
        holder.kill("SIGKILL");
        throw error;
      }
      const pids = ["plain", "stubborn", "grandchild", "parent"].map((name) => Number(readFileSync(join(dir, `${name}.pid`), "utf8")));
      expect(pids.every((pid) => pid > 0 && alive(pid))).toBe(true);
      holder.kill("SIGKILL");
      await exited;
      try {
        // Bounded by a generous timeout, not timed: the bench measures how fast (about the 1 s grace).
        await until("every supervised process to end", () => pids.every((pid) => !alive(pid)));
      } finally {
        for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
      }
    }, 60_000);
  });
}
