/**
 * The notifier's rules without servers: which ended runs notify under each `on` policy, how
 * per-task settings override the default, and how a body template (a Slack message) is filled
 * with masked, JSON-escaped values.
 */
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../../core/plugin-api/mod.ts";
import { SecretList } from "../../../core/kernel/secret-list.ts";
import { notificationOf, renderBody } from "../../../plugins/notifier-webhook/src/notification-body.ts";
import { destinationResolver } from "../../../plugins/notifier-webhook/src/notifier-options.ts";
import { NotifyPolicy } from "../../../plugins/notifier-webhook/src/notify-policy.ts";

const run = (task: string, outcome: RunRecord["outcome"], error?: string): RunRecord => ({
  id: `1796290833123-${task}`, task, trigger: { kind: "dependency", detail: "/v1/catalog/nodes" }, change: {}, outcome,
  started_at: "2026-11-28T10:00:00.000Z", ended_at: "2026-11-28T10:00:02.000Z", duration_ms: 2000, instance_id: "cts-01",
  ...(error !== undefined ? { error } : {}),
});

describe("which runs notify", () => {
  it("all: every run that reached the driver; failures: failed ones; never a skipped trigger", () => {
    const policy = new NotifyPolicy();
    expect(policy.decide(run("a", "applied"), "all").notify).toBe(true);
    expect(policy.decide(run("a", "skipped"), "all").notify).toBe(false);
    expect(policy.decide(run("b", "applied"), "failures").notify).toBe(false);
    expect(policy.decide(run("b", "failed"), "failures").notify).toBe(true);
  });

  it("changes: a result different from the task's previous run; the first run only when it failed", () => {
    const policy = new NotifyPolicy();
    const outcomes: RunRecord["outcome"][] = ["applied", "applied", "failed", "failed", "skipped", "applied"];
    expect(outcomes.map((outcome) => policy.decide(run("c", outcome), "changes")))
      .toEqual([
        { notify: false }, { notify: false, previous: "succeeded" }, { notify: true, previous: "succeeded" },
        { notify: false, previous: "failed" }, { notify: false }, { notify: true, previous: "failed" },
      ]);
    expect(new NotifyPolicy().decide(run("d", "failed"), "changes").notify).toBe(true);
  });
});

describe("destinations", () => {
  it("a task's override replaces the default's fields; never silences it; a secret from the environment", () => {
    const { destinationOf } = destinationResolver({
      url: "https://hooks.example/all", secret: "default-key", on: "failures",
      tasks: { web: { on: "all", secret_env: "WEB_HOOK_KEY" }, quiet: { on: "never" } },
    }, { WEB_HOOK_KEY: "from-env" });
    expect(destinationOf("other")).toEqual({ url: "https://hooks.example/all", on: "failures", secret: "default-key", headers: {} });
    expect(destinationOf("web")).toEqual({ url: "https://hooks.example/all", on: "all", secret: "from-env", headers: {} });
    expect(destinationOf("quiet")).toBeUndefined();
  });

  it("refuses a task that notifies without a url, and an unset secret_env, naming them", () => {
    expect(() => destinationResolver({ tasks: { web: { on: "all" } } }, {}))
      .toThrow(`Cannot configure notifications for task "web": no url (set url here or as the default)`);
    expect(() => destinationResolver({ url: "https://hooks.example/x", secret_env: "NOPE" }, {}))
      .toThrow("Cannot configure notifications for the default: environment variable NOPE is not set");
  });
});

describe("bodies", () => {
  const masker = new SecretList();
  masker.add("tok-123456", "test");

  it("the JSON body carries the masked run record", () => {
    const body = JSON.parse(renderBody(notificationOf(run("web", "failed", "denied with tok-123456"), "failed", "succeeded", masker), undefined, masker));
    expect(body).toMatchObject({ event: "run.ended", task: "web", status: "failed", previous_status: "succeeded" });
    expect(body.run.error).toBe("denied with <redacted>");
  });

  it("a Slack-compatible template is filled with JSON-escaped, masked values", () => {
    const template = `{"text": ":x: cts task *{{task}}* {{status}} ({{trigger}}): {{error}}"}`;
    const notification = notificationOf(run("web", "failed", `quote " and tok-123456`), "failed", undefined, masker);
    expect(JSON.parse(renderBody(notification, template, masker))).toEqual({
      text: `:x: cts task *web* failed (dependency: /v1/catalog/nodes): quote " and <redacted>`,
    });
  });
});
