/**
 * Issue 24 item 1: a process that cannot be started (the daemon out of file descriptors) fails that
 * call with an error naming the cause, and the process that asked keeps running and can start the
 * next one once descriptors are free. On main, Node's unheard `error` event ended the process.
 * Run in a child Node under `prlimit`, which fills its own descriptor table to the brim.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../../harness/run-cli.ts";

const SCRIPT = `
import { closeSync, openSync } from "node:fs";
const { createProcessRunner } = await import(${JSON.stringify(join(repoRoot, "dist/core/runtime/process-runner.js"))});
const runner = createProcessRunner({ descriptorWaitMs: 0 });
const held = [];
try { for (;;) held.push(openSync("/dev/null", "r")); } catch {}
// Two free: the first of the five pipes a start needs fits, the second does not.
closeSync(held.pop());
closeSync(held.pop());
let failure;
try {
  await runner.run("true", []);
} catch (error) {
  failure = { code: error.code, message: error.message };
}
for (const fd of held) closeSync(fd);
const after = await runner.run("sh", ["-c", "echo started again"]);
console.log(JSON.stringify({ failure, after }));
`;

function runUnderLimit(limit: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("prlimit", [`--nofile=${limit}:${limit}`, process.execPath, "--input-type=module", "-e", SCRIPT], { cwd: repoRoot });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("a process start that fails for want of descriptors", () => {
  it("rejects with CTS_ERR_PROCESS naming EMFILE, and the caller lives on to start the next process", async () => {
    const result = await runUnderLimit(64);
    expect(result.stderr).not.toContain("Unhandled 'error' event");
    expect(result.code, result.stderr).toBe(0);
    const outcome = JSON.parse(result.stdout) as { failure?: { code: string; message: string }; after: { exitCode: number; stdout: string } };
    expect(outcome.failure?.code).toBe("CTS_ERR_PROCESS");
    expect(outcome.failure?.message).toMatch(/^Cannot start true: the daemon has run out of file descriptors \(EMFILE\)/);
    expect(outcome.after).toMatchObject({ exitCode: 0, stdout: "started again\n" });
  });
});
