/**
 * The webhook notifier in a real kernel (the real engine, the recording driver, the metrics
 * endpoint over real HTTP) against webhook receivers on 127.0.0.1: a receiver that fails twice then
 * accepts gets one notification, signed, with the run record masked; a receiver that never answers
 * delays no run, and its bounded queue drops the oldest. Beyond CTS (CTS#309).
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { definePlugin, secretMaskerToken, type RunRecord } from "../../../core/plugin-api/mod.ts";
import { testTask } from "../../../core/plugin-testkit/src/test-config.ts";
import { until } from "../../../harness/until.ts";
import { apiConfig, startApiKernel, type ApiKernel } from "../http-api/helpers/api-kernel.ts";

const SECRET = "webhook-hmac-key-1";
const NEVER = "0 0 1 1 *";
/** A secret the daemon learns before any run (as the engine learns Vault values); the driver's error text holds it. */
const knowsASecret = definePlugin({
  id: "test-secret", kind: "service", deps: { masker: secretMaskerToken },
  init({ masker }) {
    masker.add("configured to fail", "test");
  },
});
const scheduled = (name: string) => testTask(name, { condition: { type: "schedule", cron: NEVER }, driver: "recording" });

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
  answered?: number;
}

describe("webhook notifications", () => {
  let receiver: Server;
  let base = "";
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  let daemon: ApiKernel;

  beforeAll(async () => {
    let flakyCalls = 0;
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        const entry: Received = { path: request.url ?? "", headers: request.headers, body };
        received.push(entry);
        if (request.url === "/slow") return void held.push(response);
        entry.answered = ++flakyCalls <= 2 ? 500 : 204;
        response.writeHead(entry.answered).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
    daemon = await startApiKernel({
      extraPlugins: ["metrics", "notifier-webhook"],
      recording: { fail_tasks: ["broken"] },
      plugins: [knowsASecret],
      config: apiConfig({
        // CTS's start-up pass stops at the first failed task: the failing one comes last.
        tasks: ["steady", "slow-task", "broken"].map(scheduled),
        plugins: [{
          name: "notifier-webhook", source: "builtin:notifier-webhook",
          options: {
            url: `${base}/flaky`, secret: SECRET, on: "failures",
            retry: { attempts: 4, initial_backoff: "20ms", max_backoff: "100ms" },
            queue_size: 2, drain_timeout: "100ms",
            tasks: { "slow-task": { url: `${base}/slow`, on: "all" } },
          },
        }],
      }),
    });
  });

  afterAll(async () => {
    await daemon?.stop();
    for (const response of held) response.destroy();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const flaky = () => received.filter((entry) => entry.path === "/flaky");
  const metrics = async () => (await fetch(`${daemon.url}/metrics`)).text();

  it("a receiver that fails twice then accepts gets the failed run once, signed, masked", async () => {
    await until("the flaky receiver to accept", () => flaky().some((entry) => entry.answered === 204) || undefined);
    const attempts = flaky();
    expect(attempts.map((entry) => entry.answered)).toEqual([500, 500, 204]);
    // One notification: the same delivery id and body on every attempt, and only the failed task's.
    expect(new Set(attempts.map((entry) => entry.headers["x-cts-delivery"])).size).toBe(1);
    expect(new Set(attempts.map((entry) => entry.body)).size).toBe(1);
    const accepted = attempts[2]!;
    const body = JSON.parse(accepted.body) as { event: string; task: string; status: string; delivery_id: string; run: RunRecord };
    expect(body).toMatchObject({ event: "run.ended", task: "broken", status: "failed", delivery_id: accepted.headers["x-cts-delivery"] });
    expect(body.run).toMatchObject({ task: "broken", outcome: "failed", trigger: { kind: "startup" } });
    expect(body.run.error).toBe(`Cannot apply task "broken": <redacted>`);
    expect(accepted.body).not.toContain("configured to fail");
    expect(accepted.headers["content-type"]).toBe("application/json");
    expect(accepted.headers["x-cts-event"]).toBe("run.ended");

    // The receiver's check: HMAC-SHA256 over "<t>.<raw body>" with the shared secret, t recent.
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(accepted.headers["x-cts-signature"]));
    expect(match).not.toBeNull();
    const [, timestamp, signature] = match!;
    expect(signature).toBe(createHmac("sha256", SECRET).update(`${timestamp}.${accepted.body}`).digest("hex"));
    expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(300);
    expect(signature).not.toBe(createHmac("sha256", "another-key").update(`${timestamp}.${accepted.body}`).digest("hex"));

    const text = await until("the delivered count in /metrics", async () => {
      const scraped = await metrics();
      return scraped.includes(`cts_notifications_total{task="broken",result="delivered"} 1`) ? scraped : undefined;
    });
    expect(text).toContain(`cts_notification_attempts_total{result="error"} 2`);
    expect(text).toMatch(/cts_notification_attempts_total\{result="ok"\} 1\n/);
    expect(daemon.logs.some((line) => line.includes("notification delivered") && line.includes("attempts=3"))).toBe(true);
  });

  it("a receiver that never answers delays no run; its queue keeps the newest two", async () => {
    // The start-up run's notification is held by the receiver; four more runs end regardless.
    await until("the slow receiver to get the start-up run", () => received.some((entry) => entry.path === "/slow") || undefined);
    for (let i = 0; i < 4; i++) {
      const event = await daemon.tasks.runNow("slow-task", { kind: "api" });
      expect(event?.success).toBe(true);
    }
    expect(received.filter((entry) => entry.path === "/slow")).toHaveLength(1);
    const scraped = await metrics();
    expect(scraped).toContain(`cts_notifications_total{task="slow-task",result="dropped"} 2`);
    expect(scraped).toContain("cts_notification_queue_length 2");
    // The steady task succeeded: with on = "failures" (the default's policy) it notifies nobody.
    expect(received.some((entry) => entry.body.includes(`"task":"steady"`))).toBe(false);
  });
});
