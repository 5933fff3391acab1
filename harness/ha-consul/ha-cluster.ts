/**
 * @module A cluster of real cts-runtime processes (`node dist/main.js start`) sharing one Consul and one
 * HA cluster name, for the HA end-to-end tests and the failover bench. Each instance has its own id,
 * port, working directory and output; instances can be killed (SIGKILL/SIGTERM) and started again.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../free-port.ts";
import { repoRoot, type Runtime, spawnCli } from "../run-cli.ts";
import { until } from "../until.ts";

/**
 * Node 20 cannot import the .ts recording driver fixture, so it is bundled to one ESM file with the
 * rolldown that vitest already ships (plugin-api tokens are `Symbol.for` keys, so a bundled copy agrees).
 */
export async function bundleRecordingDriver(dir: string): Promise<string> {
  const out = join(dir, "driver-recording.mjs");
  const script = `import { build } from "rolldown";
await build({ input: ${JSON.stringify(join(repoRoot, "harness/driver-recording/mod.ts"))}, platform: "node",
  external: [/^node:/], write: true, logLevel: "silent", output: { file: ${JSON.stringify(out)}, format: "esm" } });`;
  await new Promise<void>((resolve, reject) => {
    execFile("node", ["--input-type=module", "-e", script], { cwd: repoRoot }, (error, _stdout, stderr) =>
      error ? reject(new Error(`Cannot bundle the recording driver: ${stderr || error.message}`)) : resolve());
  });
  return out;
}

export function recordingDriverHcl(bundle: string, logFile: string, applyDelayMs = 0): string {
  return `driver "recording" {}
plugin "driver-recording" {
  source = ${JSON.stringify(bundle)}
  options {
    log_file       = ${JSON.stringify(logFile)}
    apply_delay_ms = ${applyDelayMs}
  }
}
`;
}

export interface RecordEntry {
  readonly op: string;
  readonly task: string;
  readonly start: number;
  readonly end: number;
  readonly instance: string;
  readonly ok: boolean;
  readonly input?: { readonly services?: Record<string, { readonly id: string; readonly address: string }> };
}

/** The complete lines only: the file is read while instances append to it, so its last line may be half-written. */
export function readRecords(logFile: string): RecordEntry[] {
  if (!existsSync(logFile)) return [];
  const lines = readFileSync(logFile, "utf8").split("\n");
  lines.pop(); // "" after the final newline, or a line still being written
  return lines.filter(Boolean).map((line) => JSON.parse(line) as RecordEntry);
}

/** Pairs of applies by different instances whose [start, end] intervals intersect. */
export function overlappingApplies(records: readonly RecordEntry[]): [RecordEntry, RecordEntry][] {
  const applies = records.filter((entry) => entry.op === "apply").sort((a, b) => a.start - b.start);
  const found: [RecordEntry, RecordEntry][] = [];
  for (let i = 0; i < applies.length; i++) {
    for (let j = i + 1; j < applies.length && applies[j]!.start < applies[i]!.end; j++) {
      if (applies[j]!.instance !== applies[i]!.instance) found.push([applies[i]!, applies[j]!]);
    }
  }
  return found;
}

export interface ClusterSpec {
  readonly consulAddress: string;
  readonly cluster: string;
  /** Root directory; each instance gets `<dir>/<id>/`. */
  readonly dir: string;
  /** Go duration, e.g. `1s`. */
  readonly sessionTtl: string;
  /** The driver (and plugin) blocks. */
  readonly driverHcl: string;
  readonly tasksHcl: string;
  readonly env?: Readonly<Record<string, string>>;
  /** The registration check's `interval`/`timeout` (Go durations); CTS's 10s/2s when unset. */
  readonly checkInterval?: string;
  readonly checkTimeout?: string;
  /** false: `service_registration { enabled = false }` (no check to bind: the HA session is TTL-only). */
  readonly registration?: boolean;
  /** Extra lines inside `high_availability.cluster` (e.g. `mode = "shared"`). */
  readonly clusterHcl?: string;
  /** Extra lines inside `storage "consul"` (e.g. `namespace = "team-a"`). */
  readonly storageHcl?: string;
}

export interface ApiAnswer {
  readonly status: number;
  readonly json: Record<string, unknown>;
}

export class HaInstance {
  readonly id: string;
  readonly port: number;
  readonly dir: string;
  readonly configPath: string;
  #spec: ClusterSpec;
  #process: ChildProcess | undefined;
  #exited: Promise<number | null> = Promise.resolve(null);
  /** Output of every start of this instance, in order. */
  output = "";

  constructor(spec: ClusterSpec, id: string, port: number) {
    this.#spec = spec;
    this.id = id;
    this.port = port;
    this.dir = join(spec.dir, id);
    mkdirSync(join(this.dir, "mod"), { recursive: true });
    this.configPath = join(this.dir, "cts.hcl");
    writeFileSync(this.configPath, instanceConfig(spec, id, port, this.dir));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#process !== undefined && this.#process.exitCode === null && this.#process.signalCode === null;
  }

  /** Which runtime runs this instance (`deno` runs `deno run -A main.ts` from the source tree). */
  runtime: Runtime = "node";

  start(...flags: string[]): void {
    if (this.running) throw new Error(`${this.id} is already running`);
    const args = ["start", ...flags, `-config-file=${this.configPath}`];
    if (this.runtime === "deno") return this.#attach(spawnCli("deno", args, { cwd: this.dir, ...(this.#spec.env ? { env: { ...this.#spec.env } } : {}) }));
    // Under Deno (the bench), process.execPath is deno: start the built CLI with the node on PATH instead.
    const child = "Deno" in globalThis
      ? spawn("node", [join(repoRoot, "dist", "main.js"), ...args], {
        cwd: this.dir, env: { ...process.env, NO_COLOR: "1", ...this.#spec.env }, stdio: ["pipe", "pipe", "pipe"],
      })
      : spawnCli("node", args, { cwd: this.dir, ...(this.#spec.env ? { env: { ...this.#spec.env } } : {}) });
    this.#attach(child);
  }

  #attach(child: ChildProcess): void {
    child.stdout!.on("data", (chunk) => (this.output += chunk));
    child.stderr!.on("data", (chunk) => (this.output += chunk));
    this.#exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    this.#process = child;
  }

  /** Sends `signal` and waits for the process to end. */
  async kill(signal: "SIGKILL" | "SIGTERM"): Promise<number | null> {
    if (!this.running) return this.#exited;
    this.#process!.kill(signal);
    return await this.#exited;
  }

  async api(method: string, path: string, body?: unknown): Promise<ApiAnswer | undefined> {
    try {
      const response = await fetch(`${this.url}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
        signal: AbortSignal.timeout(5000),
      });
      const text = await response.text();
      return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch {
      return undefined;
    }
  }

  /** True when this instance answers /v1/status itself (followers redirect with 400). */
  async leads(): Promise<boolean> {
    return this.running && (await this.api("GET", "/v1/status"))?.status === 200;
  }

  /** Epoch ms of each "acquired leadership lock" line this instance printed. */
  acquisitions(): number[] {
    return [...this.output.matchAll(/^(\S+) \[INFO\]\s+ha: acquired leadership lock/gm)].map((m) => Date.parse(m[1]!));
  }
}

function instanceConfig(spec: ClusterSpec, id: string, port: number, dir: string): string {
  return `id          = "${id}"
port        = ${port}
log_level   = "INFO"
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
consul {
  address = "${spec.consulAddress}"
  service_registration {${spec.registration === false ? "\n    enabled = false" : ""}
    service_name = "${spec.cluster}"
    default_check {
      address = "http://127.0.0.1:${port}"${spec.checkInterval ? `\n      interval = "${spec.checkInterval}"` : ""}${spec.checkTimeout ? `\n      timeout = "${spec.checkTimeout}"` : ""}
    }
  }
}
buffer_period {
  enabled = false
}
high_availability {
  cluster {
    name = "${spec.cluster}"${spec.clusterHcl ? `\n    ${spec.clusterHcl}` : ""}
    storage "consul" {
      parent_path = "consul-terraform-sync/"
      session_ttl = "${spec.sessionTtl}"${spec.storageHcl ? `\n      ${spec.storageHcl}` : ""}
    }
  }
  instance {
    address = "127.0.0.1:${port}"
  }
}
${spec.driverHcl}
${spec.tasksHcl}`;
}

export async function startCluster(spec: ClusterSpec, size: number): Promise<HaInstance[]> {
  const instances: HaInstance[] = [];
  for (let n = 1; n <= size; n++) instances.push(new HaInstance(spec, `${spec.cluster}-${n}`, await freePort()));
  for (const instance of instances) instance.start();
  return instances;
}

export async function stopCluster(instances: readonly HaInstance[]): Promise<void> {
  await Promise.all(instances.map((instance) => instance.kill("SIGTERM")));
}

export { until } from "../until.ts";

/** The running instances that answer as leader right now. */
export async function currentLeaders(instances: readonly HaInstance[]): Promise<HaInstance[]> {
  const answers = await Promise.all(instances.map(async (instance) => ((await instance.leads()) ? instance : undefined)));
  return answers.filter((instance): instance is HaInstance => instance !== undefined);
}

/** Waits until exactly one running instance leads and returns it. */
export function waitForLeader(instances: readonly HaInstance[], limitMs = 60_000): Promise<HaInstance> {
  return until("a single leader", async () => {
    const leaders = await currentLeaders(instances);
    return leaders.length === 1 ? leaders[0] : undefined;
  }, limitMs);
}

/**
 * Stops the leader with `signal` and waits for another instance to lead. The failover time is measured
 * from just before the signal to the new leader's "acquired leadership lock" log line.
 */
export async function failover(
  instances: readonly HaInstance[],
  leader: HaInstance,
  signal: "SIGKILL" | "SIGTERM",
  limitMs = 60_000,
): Promise<{ next: HaInstance; ms: number }> {
  const before = new Map(instances.map((instance) => [instance, instance.acquisitions().length]));
  const t0 = Date.now();
  await leader.kill(signal);
  const others = instances.filter((instance) => instance !== leader);
  const next = await waitForLeader(others, limitMs);
  const acquired = await until(`${next.id}'s acquisition log line`, () => next.acquisitions()[before.get(next)!], 5000);
  return { next, ms: acquired - t0 };
}

export async function registerService(consulUrl: string, id: string, name: string, address: string, port = 80): Promise<void> {
  const response = await fetch(`${consulUrl}/v1/agent/service/register`, {
    method: "PUT", body: JSON.stringify({ ID: id, Name: name, Address: address, Port: port }),
  });
  if (!response.ok) throw new Error(`register ${id}: ${response.status} ${await response.text()}`);
}

/** The check ids the session holding the cluster's leader lock is bound to ([] when TTL-only or no holder). */
export async function leaderLockChecks(consulUrl: string, cluster: string): Promise<string[]> {
  const pair = await fetch(`${consulUrl}/v1/kv/consul-terraform-sync/${cluster}/leader`);
  if (pair.status !== 200) return [];
  const session = ((await pair.json()) as { Session?: string }[])[0]?.Session;
  if (!session) return [];
  const info = ((await (await fetch(`${consulUrl}/v1/session/info/${session}`)).json()) as Record<string, unknown>[])[0] ?? {};
  return [...((info["NodeChecks"] as string[] | null) ?? []), ...((info["Checks"] as string[] | null) ?? [])];
}
