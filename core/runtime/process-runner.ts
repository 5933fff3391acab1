/**
 * @module The ProcessRunner service: every command runs under the `sh` supervisor of
 * process-supervisor.ts, with its arguments passed one by one (nothing a user configured is ever
 * interpreted by a shell). The supervisor kills the command when cts-runtime dies, SIGKILL included,
 * as CTS has the kernel do for its Terraform (parent-death signal): an orphaned `terraform apply`
 * would keep holding the state lock and race the next start's run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import type { Readable } from "node:stream";
import { which } from "zx";
import type { ProcessOptions, ProcessResult, ProcessRunner } from "../plugin-api/mod.ts";
import { descriptorGuard, PROCESS_START_DESCRIPTORS } from "./descriptor-guard.ts";
import { processStartFailure } from "./process-start-failure.ts";
import { SUPERVISOR_NAME, SUPERVISOR_SCRIPT } from "./process-supervisor.ts";

/** An absolute shell: a task's env may change PATH, the supervisor must not move with it. */
const SHELL = "/bin/sh";

/** How long a start waits for free descriptors before it is tried anyway (and fails clearly if none are). */
const DESCRIPTOR_WAIT_MS = 30_000;

export interface ProcessRunnerOptions {
  /** How long a start waits for free descriptors before it is tried anyway. @default 30000 */
  readonly descriptorWaitMs?: number;
}

export function createProcessRunner(runnerOptions: ProcessRunnerOptions = {}): ProcessRunner {
  const descriptorWaitMs = runnerOptions.descriptorWaitMs ?? DESCRIPTOR_WAIT_MS;
  return {
    async run(command: string, args: readonly string[], options: ProcessOptions = {}): Promise<ProcessResult> {
      options.signal?.throwIfAborted();
      // Short of descriptors, a new process waits for some to be freed (the API sheds meanwhile).
      await descriptorGuard.waitForRoom(PROCESS_START_DESCRIPTORS, descriptorWaitMs, options.signal);
      options.signal?.throwIfAborted();
      return await runSupervised(command, args, options);
    },

    async which(command: string): Promise<string | undefined> {
      return (await which(command, { nothrow: true })) ?? undefined;
    },
  };
}

function spawnSupervisor(command: string, args: readonly string[], options: ProcessOptions): ChildProcess {
  return spawn(SHELL, ["-c", SUPERVISOR_SCRIPT, SUPERVISOR_NAME, command, ...args], {
    cwd: options.cwd,
    // Layered: a task's env adds to (never replaces) the daemon's, as CTS does.
    env: { ...process.env, ...options.env },
    // Its own session and process group, so the supervisor can end the command's whole tree.
    detached: true,
    // fd 3: the lifeline; its end of file tells the supervisor that cts-runtime is gone.
    // fd 4: the supervisor closes it once its signal traps are set.
    stdio: ["pipe", "pipe", "pipe", "pipe", "pipe"],
  });
}

function runSupervised(command: string, args: readonly string[], options: ProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnSupervisor(command, args, options);
    } catch (error) {
      // Errors other than Node's listed ones (EMFILE, ENOENT, ...) are thrown rather than emitted.
      return reject(processStartFailure(command, options.cwd, error));
    }
    if (!child.stdio?.[4]) {
      // Node gave up before the pipes existed (EMFILE, ENFILE); its `error` event follows.
      child.once("error", (error) => reject(processStartFailure(command, options.cwd, error)));
      return;
    }
    const lifeline = child.stdio[3] as { destroy(): void } | null;
    const trapsSet = child.stdio[4] as Readable;
    const stdout = new OutputTail(options.maxOutputChars);
    const stderr = new OutputTail(options.maxOutputChars);
    const onOutput = options.onOutput;
    child.stdout!.setEncoding("utf8");
    child.stderr!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      stdout.add(chunk);
      onOutput?.(chunk, "stdout");
    });
    child.stderr!.on("data", (chunk: string) => {
      stderr.add(chunk);
      onOutput?.(chunk, "stderr");
    });
    // Aborting is a clean stop: the supervisor passes SIGTERM on and waits for the command. Sent
    // before the supervisor's traps are set, the signal would kill the supervisor instead: it waits.
    let ready = false;
    let killTimer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      if (!ready) return;
      child.kill("SIGTERM");
      // A command that ignores SIGTERM is ended with its whole group (the supervisor leads it).
      if (options.killAfterMs !== undefined && killTimer === undefined) {
        killTimer = setTimeout(() => killGroup(child.pid), options.killAfterMs);
      }
    };
    trapsSet.resume();
    trapsSet.once("close", () => {
      ready = true;
      if (options.signal?.aborted) onAbort();
    });
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const streamsClosed = Promise.all([child.stdout!, child.stderr!].map((stream) =>
      new Promise<void>((done) => {
        if (stream.readableEnded || stream.destroyed) return done();
        stream.once("close", () => done());
      })
    ));
    let settled = false;
    child.once("error", (error) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", onAbort);
      lifeline?.destroy();
      reject(processStartFailure(command, options.cwd, error));
    });
    // Not "close": that waits for the lifeline too, which the supervisor only lets go when it ends.
    child.once("exit", (code, signal) => {
      // The kill timer stays until the streams close: a command's children may outlive the
      // supervisor and hold its output open (a shell killed by SIGTERM leaves its `sleep`).
      void streamsClosed.then(() => {
        clearTimeout(killTimer);
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener("abort", onAbort);
        lifeline?.destroy();
        // Aborting is the caller's decision, so it surfaces as the caller's reason, not as an exit code.
        if (options.signal?.aborted) return reject(options.signal.reason);
        // The texts first: reading one makes its last cut, which the count must include.
        const [out, err] = [stdout.text, stderr.text];
        const omitted = stdout.omitted + stderr.omitted;
        resolve({
          exitCode: code ?? (signal ? 128 + (signalNumbers[signal] ?? 0) : 1), stdout: out, stderr: err,
          ...(omitted > 0 ? { omittedChars: omitted } : {}),
        });
      });
    });
    child.stdin!.on("error", () => {
      // The command exited without reading its input: its exit code tells what happened.
    });
    child.stdin!.end(options.input ?? "");
  });
}

const signalNumbers: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** SIGKILL to the supervisor's process group (it leads one: spawned `detached`); gone already is fine. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group ended meanwhile.
  }
}

/** A stream's text, keeping only the last `limit` characters when a limit is set. */
class OutputTail {
  readonly #limit: number;
  #text = "";
  omitted = 0;

  constructor(limit: number | undefined) {
    this.#limit = limit ?? Infinity;
  }

  add(chunk: string): void {
    this.#text += chunk;
    // Trimmed only past twice the limit, so a stream of small chunks is not copied on every chunk.
    if (this.#text.length > this.#limit * 2) this.#trim();
  }

  get text(): string {
    this.#trim();
    return this.#text;
  }

  #trim(): void {
    const excess = this.#text.length - this.#limit;
    if (excess <= 0) return;
    this.#text = this.#text.slice(excess);
    this.omitted += excess;
  }
}
