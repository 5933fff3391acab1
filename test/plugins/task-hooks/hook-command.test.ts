/**
 * One hook command under the real process supervisor (core/runtime/process-runner.ts): its report
 * keeps the end of its output, masked even where a secret straddles the cut; the daemon's stop ends
 * it; a program that does not exist fails with the shell's 127; the environment reaches it.
 */
import { describe, expect, it } from "vitest";
import { SecretList } from "../../../core/kernel/secret-list.ts";
import { createFileSystem } from "../../../core/runtime/file-system.ts";
import { createProcessRunner } from "../../../core/runtime/process-runner.ts";
import { runHookCommand } from "../../../plugins/task-hooks/src/hook-command.ts";

const SECRET = "s3cr3t-value-0123456789";

function deps(maxOutputChars = 200) {
  const masker = new SecretList();
  masker.add(SECRET, "test");
  return { processes: createProcessRunner(), fs: createFileSystem(), masker, maxOutputChars };
}

const run = (command: string[], extra: Partial<Parameters<typeof runHookCommand>[0]> = {}) => ({
  name: "post_apply", hook: { command, timeout: "20s" }, cwd: "/tmp", env: {}, signal: new AbortController().signal, ...extra,
});

describe("a hook command", () => {
  it("keeps the end of a long output, masked, and never half a secret at the cut", async () => {
    // 3000 lines each holding the secret: the cut lands inside some line, whose start is dropped whole.
    const script = `i=0; while [ $i -lt 3000 ]; do echo "line $i ${SECRET}"; i=$((i+1)); done`;
    const report = await runHookCommand(run(["/bin/sh", "-c", script]), deps(200));
    expect(report.outcome).toBe("ok");
    expect(report.output!.length).toBeLessThanOrEqual(200);
    expect(report.output!.startsWith("line ")).toBe(true);
    expect(report.output!.endsWith("line 2999 <redacted>\n")).toBe(true);
    expect(report.output).not.toMatch(/s3cr|0123456789/);
    expect(report.output_omitted).toBeGreaterThan(50_000);
  });

  it("ends at the daemon's stop and says so", async () => {
    const stop = new AbortController();
    const running = runHookCommand(run(["/bin/sh", "-c", "echo started; sleep 30"], { signal: stop.signal }), deps());
    setTimeout(() => stop.abort(new Error("daemon stopping")), 300);
    const report = await running;
    expect(report).toMatchObject({ outcome: "failed", error: "stopped: the daemon is stopping" });
    // The shell may add its own "Terminated" line, depending on which process the signal ends first.
    expect(report.output).toMatch(/^started\n/);
  });

  it("reports a missing program, and passes its environment", async () => {
    const missing = await runHookCommand(run(["cts-no-such-hook-xyz"]), deps());
    expect(missing).toMatchObject({ outcome: "failed", exit_code: 127, error: "exited with status 127" });
    const env = await runHookCommand(run(["/bin/sh", "-c", "echo $CTS_RUN_ID"], { env: { CTS_RUN_ID: "1-abc" } }), deps());
    expect(env).toMatchObject({ outcome: "ok", exit_code: 0, output: "1-abc\n" });
  });
});
