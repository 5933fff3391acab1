/**
 * A held Terraform state lock (issue 11) with the real terraform, the embedded Consul and the default
 * consul backend, the lock taken by a `terraform apply` run by hand in the task's directory: `-once`
 * waits for it and succeeds once it is released; with a short `lock_timeout` it exits 11 naming the lock
 * and its holder; the daemon's start-up run that cannot get the lock is an errored event, retried in the
 * background until it succeeds, instead of ending the daemon. CTS fails at once (it waits 0s, then the
 * daemon exits 11): the wait is beyond CTS; CTS's exit code 11 for a failed -once is kept.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { freePort } from "../../harness/free-port.ts";
import { runCli, spawnCli } from "../../harness/run-cli.ts";
import { startedApplies, taskStatus, writeSlowConfig } from "../../harness/driver-terraform/crash-support.ts";
import { readServiceLines, registerService, waitFor } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const env = terraformTestEnv();
let consul: TestConsulDevServer;
const tmp = tempDir("state-lock");
const children: ChildProcess[] = [];

beforeAll(async () => {
  consul = await startConsulDevServer();
});
afterAll(async () => {
  for (const child of children) {
    try {
      // Hand applies lead a process group of their own; daemons do not.
      process.kill(child.spawnargs[0] === "terraform" ? -child.pid! : child.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  await consul.stop();
  tmp.remove();
});

interface HandApply {
  /** Interrupts the apply (SIGTERM): Terraform stops, writes its state and releases the lock. */
  release(): Promise<void>;
  /** True while the apply (and so its lock) is still there. */
  holding(): boolean;
}

/** `terraform apply` by hand in the task's directory; resolves once its provisioner runs (the lock is held). */
async function handApply(dir: string, task: string): Promise<HandApply> {
  // A lock the previous test's apply just released can still be refused for a moment (Consul's lock
  // delay after its session ends): a person would simply run the command again.
  for (let attempt = 1; ; attempt++) {
    const before = startedApplies(dir, task);
    // The provisioner sleeps far longer than any test: the lock is released on purpose, not by time.
    const child = spawn("terraform", ["apply", "-auto-approve", "-input=false", "-no-color", "-var=apply_sleep=120"], {
      // A group of its own, so that the provisioner's `sleep`, which Terraform leaves behind, ends with it.
      cwd: join(dir, "sync-tasks", task), env, stdio: ["ignore", "pipe", "pipe"], detached: true,
    });
    children.push(child);
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // The provisioner runs inside the apply, so from here on the lock is held.
    await waitFor(() => startedApplies(dir, task) > before || child.exitCode !== null, () => `hand apply never started: ${output}`);
    if (child.exitCode === null) {
      return {
        holding: () => child.exitCode === null && child.signalCode === null,
        async release() {
          child.kill("SIGTERM");
          await exited;
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            // Nothing left in the group.
          }
        },
      };
    }
    if (attempt >= 20 || !/failed to lock state/.test(output)) throw new Error(`the hand apply ended early: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** One task, one working directory, initialised by one -once; the tests then take turns on it. */
const dir = join(tmp.path, "lock");
const task = "lock-task";
let initialised: Promise<string> | undefined;
function initialise(): Promise<string> {
  initialised ??= (async () => {
    await registerService(consul.url, "lock-web-1", "lock-web", "10.1.0.1");
    const config = writeSlowConfig({ dir, consulAddress: consul.address, task, services: ["lock-web"], applySleep: 0 });
    const first = await once(config, dir);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    return config;
  })();
  return initialised;
}

const once = (config: string, dir: string) => runCli("node", ["start", "-once", `-config-file=${config}`], { cwd: dir, env, timeoutMs: 120_000 });

function daemon(args: string[], dir: string): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawnCli("node", args, { cwd: dir, env });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { child, output: () => output, exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))) };
}

describe("a state lock held by a hand-run terraform apply", () => {
  test("-once waits for the lock and succeeds when it is released", async () => {
    const config = await initialise();

    const hand = await handApply(dir, task);
    await registerService(consul.url, "lock-web-2", "lock-web", "10.1.0.2");
    const second = daemon(["start", "-once", `-config-file=${config}`], dir);
    await waitFor(() => /the Terraform state is locked, waiting for it/.test(second.output()), () => `never waited\n${second.output()}`);
    expect(second.output()).toMatch(/the Terraform state is locked, waiting for it: .*lock_timeout=5m .*path=consul-terraform-sync\/terraform-env:lock-task/);
    expect(second.child.exitCode).toBeNull();
    await hand.release();
    expect(await second.exited, second.output()).toBe(0);
    expect(readServiceLines(dir, task)).toEqual(["lock-web 10.1.0.1:80", "lock-web 10.1.0.2:80"]);
  }, 120_000);

  test("with a short lock_timeout, -once exits 11 naming the lock and its holder", async () => {
    const config = await initialise();

    const hand = await handApply(dir, task);
    writeSlowConfig({ dir, consulAddress: consul.address, task, services: ["lock-web"], applySleep: 0, lockTimeout: "2s" });
    const result = await once(config, dir);
    expect(result.code).toBe(11);
    expect(result.stderr).toMatch(
      /Cannot run task "lock-task": Cannot initialise task "lock-task": the Terraform state is locked by another process \(lock ID [0-9a-f-]{36}, path consul-terraform-sync\/terraform-env:lock-task, held by \S+@\S+, operation OperationTypeApply, since [^)]+\) and stayed locked for lock_timeout 2s \(driver "terraform"\)/,
    );
    await hand.release();
  }, 120_000);

  test("SIGTERM while a triggered apply waits for the lock stops the daemon at once, not after lock_timeout", async () => {
    const port = await freePort();
    const config = await initialise();
    writeSlowConfig({ dir, consulAddress: consul.address, task, services: ["lock-web"], applySleep: 0, port });
    const running = daemon(["start", `-config-file=${config}`], dir);
    await waitFor(async () => (await taskStatus(port, task)) === "successful", () => `never successful\n${running.output()}`);

    const hand = await handApply(dir, task);
    await registerService(consul.url, "lock-web-3", "lock-web", "10.1.0.3");
    // A run plans to a file before it applies (the plan takes the lock first).
    await waitFor(() => /the Terraform state is locked, waiting for it: .*command="terraform plan"/.test(running.output()), () => `run never waited\n${running.output()}`);
    running.child.kill("SIGTERM");
    // CTS pins: a signal ends the daemon with "graceful shutdown" and exit 0. The wait (lock_timeout 5m)
    // must not hold the stop: the daemon is gone while the hand-run apply still holds the lock.
    expect(await running.exited, running.output()).toBe(0);
    expect(hand.holding()).toBe(true);
    expect(running.output()).toContain("stopped while waiting for the Terraform state lock");
    expect(running.output()).toMatch(/cli: graceful shutdown/);
    await hand.release();
  }, 120_000);

  test("the daemon's start-up run is an errored event, retried until the lock is released; the daemon keeps running", async () => {
    const port = await freePort();
    const config = await initialise();

    const hand = await handApply(dir, task);
    writeSlowConfig({ dir, consulAddress: consul.address, task, services: ["lock-web"], applySleep: 0, lockTimeout: "1s", port });
    const started = daemon(["start", `-config-file=${config}`], dir);
    const logs = started.output;
    await waitFor(async () => (await taskStatus(port, task)) === "errored", () => `never errored\n${logs()}`);
    await waitFor(() => /state lock still held, the start-up run will be retried: task_name=lock-task retry=1/.test(logs()), logs);
    expect(started.child.exitCode).toBeNull();
    await hand.release();
    await waitFor(async () => (await taskStatus(port, task)) === "successful", () => `never successful\n${logs()}`);
    expect(logs()).toMatch(/start-up run completed after the state lock was released: task_name=lock-task/);
    const status = await (await fetch(`http://127.0.0.1:${port}/v1/status/tasks/lock-task?include=events`)).json() as Record<string, {
      events?: { success: boolean; error: { message: string } | null }[];
    }>;
    const events = status[task]?.events ?? [];
    expect(events[0]?.success).toBe(true);
    expect(events.some((event) => /state is locked by another process/.test(event.error?.message ?? ""))).toBe(true);
    started.child.kill("SIGTERM");
  }, 120_000);
});
