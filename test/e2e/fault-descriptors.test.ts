/**
 * Issue 24 item 1: the real daemon under a lowered open-file limit (`prlimit --nofile=100`), the real
 * Terraform, the embedded Consul. Slow-body API requests, then tasks created through the API, use up
 * its descriptors. On main the daemon died (an accept or a process start failing with EMFILE was an
 * unheard `error` event). Now it sheds what it can refuse (503 for new API requests, /v1/health
 * excepted), keeps running its tasks, logs one line when the episode begins and one when it ends.
 */
import { mkdirSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemon } from "../helpers/daemon-with-api.ts";
import { until } from "../../harness/until.ts";
import { registerService } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const tmp = tempDir("fault-fds");
const module = join(tmp.path, "module");
let consul: TestConsulDevServer;
let daemon: DaemonProcess;

const SHORT = /\[WARN\]\s+kernel: file descriptors are running short/g;
const AVAILABLE = /\[INFO\]\s+kernel: file descriptors are available again/g;
const count = (pattern: RegExp) => [...daemon.output().matchAll(pattern)].length;
const webRuns = () => [...daemon.output().matchAll(/tasksmanager: task completed: task_name=web-task/g)].length;

beforeAll(async () => {
  consul = await startConsulDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  mkdirSync(module, { recursive: true });
  writeFileSync(join(module, "main.tf"), `variable "services" {
  type = any
}
resource "terraform_data" "seen" {
  input = sort(keys(var.services))
}
`);
  daemon = await startDaemon({
    dir: tmp.path,
    nofile: 100,
    env: terraformTestEnv(),
    config: (port) => `port = ${port}
log_level = "INFO"
working_dir = ${JSON.stringify(join(tmp.path, "sync-tasks"))}
consul {
  address = "${consul.address}"
  service_registration { enabled = false }
}
buffer_period { enabled = false }
task {
  name   = "web-task"
  module = ${JSON.stringify(module)}
  condition "services" { names = ["web"] }
}
`,
  });
  await until("web-task's first run", () => (webRuns() >= 1 ? true : undefined), 60_000, 100);
}, 90_000);

afterAll(async () => {
  await daemon?.stop();
  await consul?.stop();
  tmp.remove();
});

function descriptorKinds(pid: number | undefined): Record<string, number> {
  const kinds: Record<string, number> = {};
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const kind = readlinkSync(`/proc/${pid}/fd/${fd}`).replace(/:\[\d+\]$/, "");
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
  } catch {
    // The daemon is gone.
  }
  return kinds;
}

/** A request whose body never finishes: it holds one of the daemon's descriptors until closed. */
function slowBody(port: number): { socket: Socket; answer: () => string } {
  const socket = connect(port, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk) => (answer += chunk));
  socket.on("error", () => {});
  socket.write("POST /v1/tasks HTTP/1.1\r\nHost: cts\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"task\":");
  return { socket, answer: () => answer };
}

describe("the daemon short of file descriptors", () => {
  // What holds the daemon's descriptors, by kind (socket, pipe, file), if a case fails.
  beforeEach(() => onTestFailed(() => console.log(daemon.output().slice(-6000), descriptorKinds(daemon.child.pid))));

  it("answers 503 to new requests once short, keeps its health check and its runs, and recovers when they close", async () => {
    const held: ReturnType<typeof slowBody>[] = [];
    for (let n = 0; n < 90; n++) {
      held.push(slowBody(daemon.port));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const refused = await until("503 answers to the newest slow requests", () => {
      const answered = held.filter((request) => request.answer().startsWith("HTTP/1.1 503"));
      return answered.length > 0 ? answered : undefined;
    }, 20_000, 50);
    expect(refused[0]!.answer()).toContain("short of file descriptors");
    expect((await daemon.api("GET", "/v1/health"))?.status).toBe(200);
    expect((await daemon.api("GET", "/v1/status"))?.status).toBe(503);

    // A Consul change while short: the task still runs (processes fit in the reserve kept for them).
    const before = webRuns();
    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    await until("web-task's run for web-2", () => (webRuns() > before ? true : undefined), 60_000, 100);
    expect(daemon.alive()).toBe(true);
    expect(count(SHORT)).toBe(1);

    for (const request of held) request.socket.destroy();
    await until("the API to answer again", async () => ((await daemon.api("GET", "/v1/status"))?.status === 200 ? true : undefined), 20_000, 100);
    expect(count(AVAILABLE)).toBe(1);
    expect(count(SHORT)).toBe(1);
  }, 120_000);

  it("refuses task creates with 503 once their watches use the descriptors up; existing tasks keep running", async () => {
    // Slow senders take some descriptors first (short of the reserve), so a few creates reach it.
    const held = Array.from({ length: 35 }, () => slowBody(daemon.port));
    const statuses: (number | undefined)[] = [];
    for (let n = 1; n <= 60 && !statuses.includes(503); n++) {
      const answer = await daemon.api("POST", "/v1/tasks", {
        task: { name: `fill-${n}`, module, condition: { services: { names: [`svc-${n}`] } } },
      });
      statuses.push(answer?.status);
    }
    // Every answer is a create or a refusal: never a dropped connection, never a 500 from a failed start.
    expect(statuses.filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(statuses.at(-1)).toBe(503);
    expect(daemon.alive()).toBe(true);

    const before = webRuns();
    await registerService(consul.url, "web-3", "web", "10.0.0.3");
    await until("web-task's run for web-3", () => (webRuns() > before ? true : undefined), 60_000, 100);
    expect(daemon.alive()).toBe(true);
    expect(daemon.output()).not.toContain("Unhandled 'error' event");
    expect(count(SHORT)).toBe(2);
    for (const request of held) request.socket.destroy();
  }, 180_000);
});
