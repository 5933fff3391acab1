/** Issue 24 item 2: how a stored record is judged damaged, what the report says, and that it never quotes the value. */
import { describe, expect, it } from "vitest";
import { DamagedRecords, decodeRecord } from "../../../plugins/ha-consul/src/damaged-records.ts";

describe("decodeRecord", () => {
  it("takes each kind's shape and refuses others, saying why", () => {
    expect(decodeRecord("task", '{"config": {"name": "web"}}')).toEqual({ value: { config: { name: "web" } } });
    expect(decodeRecord("task", '{"config": {}}')).toEqual({ error: 'its value is not an object with "config": {"name": ...}' });
    expect(decodeRecord("events", "[]")).toEqual({ value: [] });
    expect(decodeRecord("events", '[{"nope": 1}]')).toEqual({ error: "its value is not an array of events" });
    expect(decodeRecord("run", '{"id": "1", "task": "web"}')).toHaveProperty("value");
    expect(decodeRecord("owner", "[]")).toEqual({ error: 'its value is not an object with "id"' });
    expect(decodeRecord("leader", '{"id": "cts-')).toEqual({ error: "its value (12 bytes) is not valid JSON: it breaks at position 12" });
    expect(decodeRecord("task", "")).toEqual({ error: "its value (0 bytes) is not valid JSON: it ends early" });
  });

  it("never quotes the stored value (a task's variables may be secrets)", () => {
    const decoded = decodeRecord("task", "password-hunter2");
    expect(decoded).toEqual({ error: "its value (16 bytes) is not valid JSON: it cannot be parsed" });
  });
});

describe("DamagedRecords", () => {
  it("reports a key once until it is readable again, newest first; set-aside kinds stay listed", () => {
    const lines: string[] = [];
    const logger = {
      name: "ha", trace() {}, debug() {}, warn() {},
      info: (message: string) => lines.push(`INFO ${message}`), error: (message: string) => lines.push(`ERROR ${message}`),
      child: () => logger,
    };
    const damaged = new DamagedRecords(logger);
    damaged.report({ key: "c/tasks/a", kind: "task", task: "a", error: "e", action: "x" });
    damaged.report({ key: "c/tasks/a", kind: "task", task: "a", error: "e", action: "x" });
    damaged.report({ key: "c/events/a", kind: "events", task: "a", error: "e", action: "set aside" });
    expect(damaged.list().map((record) => record.key)).toEqual(["c/events/a", "c/tasks/a"]);
    damaged.cleared("c/tasks/a");
    damaged.cleared("c/events/a");
    expect(damaged.list().map((record) => record.key)).toEqual(["c/events/a"]);
    expect(lines).toEqual(["ERROR stored record cannot be decoded", "ERROR stored record cannot be decoded", "INFO stored record is readable again"]);
  });
});
