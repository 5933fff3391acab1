import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createProcessRunner } from "../../../core/runtime/process-runner.ts";

const runner = createProcessRunner();

describe("process runner (zx)", () => {
  it("returns stdout, stderr and the exit code without throwing on failure", async () => {
    const result = await runner.run("sh", ["-c", "echo out; echo err >&2; exit 3"]);
    expect(result).toEqual({ exitCode: 3, stdout: "out\n", stderr: "err\n" });
  });

  it("passes arguments literally, never through the shell", async () => {
    const tricky = ["a b", "$HOME", "; rm -rf /", "'quoted'", "*"];
    const result = await runner.run("printf", ["%s|", ...tricky]);
    expect(result.stdout).toBe(`${tricky.join("|")}|`);
  });

  it("adds env to the daemon's environment instead of replacing it", async () => {
    const result = await runner.run("sh", ["-c", 'echo "$CTS_TEST_VAR:${PATH:+has-path}"'], { env: { CTS_TEST_VAR: "x" } });
    expect(result.stdout).toBe("x:has-path\n");
  });

  it("runs in cwd and feeds input", async () => {
    const result = await runner.run("sh", ["-c", "pwd; cat"], { cwd: "/tmp", input: "from stdin" });
    expect(result.stdout).toBe("/tmp\nfrom stdin");
  });

  it("streams output chunks as they arrive", async () => {
    const chunks: string[] = [];
    await runner.run("sh", ["-c", "echo one; echo two >&2"], { onOutput: (chunk, stream) => chunks.push(`${stream}:${chunk}`) });
    expect(chunks.join("")).toContain("stdout:one\n");
    expect(chunks.join("")).toContain("stderr:two\n");
  });

  it("kills the process when the signal aborts and rejects with the reason", async () => {
    const controller = new AbortController();
    let pid: number | undefined;
    const running = runner.run("sh", ["-c", "echo $$; exec sleep 30"], {
      signal: controller.signal,
      onOutput: (chunk) => {
        pid ??= Number(chunk.trim());
        controller.abort(new Error("task deleted"));
      },
    });
    await expect(running).rejects.toThrow("task deleted");
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid!, 0)).toThrow(/ESRCH/);
  });

  it("settles, leaving nothing running, however soon after the start the abort comes", async () => {
    // Aborts land at every moment of the supervisor's start-up, before and after the command exists.
    // The bound only tells a hang from a run: an aborted run takes milliseconds.
    const nonce = String(process.pid).padStart(7, "0");
    const stillRunning: number[] = [];
    for (let attempt = 0; attempt < 80; attempt++) {
      const controller = new AbortController();
      const running = runner.run("sleep", [`30.${nonce}`], { signal: controller.signal }).then(() => "finished", () => "aborted");
      setTimeout(() => controller.abort(new Error("task deleted")), attempt % 8);
      const outcome = await Promise.race([running, sleep(10_000).then(() => "hung")]);
      if (outcome !== "aborted") stillRunning.push(attempt);
    }
    expect(stillRunning).toEqual([]);
    const survivors = await runner.run("pgrep", ["-f", `^sleep 30\\.${nonce}`]);
    expect(survivors.stdout).toBe("");
  }, 120_000);

  it("keeps only the last maxOutputChars of each stream, and says how many it left out", async () => {
    let seen = 0;
    const result = await runner.run("sh", ["-c", "i=0; while [ $i -lt 3000 ]; do echo line-$i; i=$((i+1)); done; echo err >&2"], {
      maxOutputChars: 100, onOutput: (chunk, stream) => (seen += stream === "stdout" ? chunk.length : 0),
    });
    expect(result.stdout).toHaveLength(100);
    expect(result.stdout.endsWith("line-2999\n")).toBe(true);
    expect(result.stderr).toBe("err\n");
    expect(result.omittedChars).toBe(seen - 100);
  });

  it("kills the whole group killAfterMs after an abort the command ignores", async () => {
    const controller = new AbortController();
    const nonce = `4${String(process.pid).padStart(7, "0")}`;
    const running = runner.run("sh", ["-c", `trap '' TERM; echo ready; sleep 30.${nonce}; echo survived`], {
      signal: controller.signal, killAfterMs: 200, onOutput: () => controller.abort(new Error("time limit")),
    });
    await expect(running).rejects.toThrow("time limit");
    const survivors = await runner.run("pgrep", ["-f", `^sleep 30\\.${nonce}`]);
    expect(survivors.stdout).toBe("");
  });

  it("rejects at once when the signal is already aborted", async () => {
    await expect(runner.run("true", [], { signal: AbortSignal.abort(new Error("too late")) })).rejects.toThrow("too late");
  });

  it("reports a missing command as exit code 127", async () => {
    expect((await runner.run("cts-no-such-command-xyz", [])).exitCode).toBe(127);
  });

  it("finds commands on PATH", async () => {
    expect(await runner.which("sh")).toMatch(/\/sh$/);
    expect(await runner.which("cts-no-such-command-xyz")).toBeUndefined();
  });
});
