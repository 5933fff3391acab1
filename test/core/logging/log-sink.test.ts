import { describe, expect, it } from "vitest";
import { createLogSink } from "../../../core/logging/log-sink.ts";
import { parseLogLevel } from "../../../core/logging/log-level.ts";
import { SecretList } from "../../../core/kernel/secret-list.ts";

const fixed = () => new Date("2026-11-21T10:00:00.000Z");

function capture(level: "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR", json = false) {
  const lines: string[] = [];
  const sink = createLogSink({ level, json, write: (line) => lines.push(line), now: fixed });
  return { sink, lines };
}

describe("log sink", () => {
  it("prints CTS's line form with key=value fields", () => {
    const { sink, lines } = capture("INFO");
    sink.logger("ctrl").info("task completed", { task_name: "web", note: "two words" });
    expect(lines).toEqual(['2026-11-21T10:00:00.000Z [INFO]  ctrl: task completed: task_name=web note="two words"']);
  });

  it("pads the level like hclog and names child loggers with dots", () => {
    const { sink, lines } = capture("TRACE");
    const driver = sink.logger("driver");
    driver.child("terraform").error("apply failed");
    driver.warn("slow");
    expect(lines).toEqual([
      "2026-11-21T10:00:00.000Z [ERROR] driver.terraform: apply failed",
      "2026-11-21T10:00:00.000Z [WARN]  driver: slow",
    ]);
  });

  it("drops records below the level and follows setLevel", () => {
    const { sink, lines } = capture("WARN");
    const log = sink.logger("ctrl");
    log.info("hidden");
    sink.setLevel("DEBUG");
    log.debug("shown");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("shown");
  });

  it("never prints a token or password field, in text or JSON", () => {
    const text = capture("INFO");
    text.sink.logger("consul").info("connecting", { token: "s3cr3t", consul_password: "pw" });
    expect(text.lines[0]).toBe(
      "2026-11-21T10:00:00.000Z [INFO]  consul: connecting: token=<redacted> consul_password=<redacted>",
    );
    const json = capture("INFO", true);
    json.sink.logger("consul").info("connecting", { token: "s3cr3t" });
    expect(JSON.parse(json.lines[0]!)).toEqual({
      "@timestamp": "2026-11-21T10:00:00.000Z",
      "@level": "info",
      "@module": "consul",
      "@message": "connecting",
      token: "<redacted>",
    });
  });

  it("accepts CTS's level spellings", () => {
    expect(parseLogLevel("err")).toBe("ERROR");
    expect(parseLogLevel("Debug")).toBe("DEBUG");
    expect(parseLogLevel("LOUD")).toBeUndefined();
  });
});

describe("log sink: secrets and colour codes (beyond CTS)", () => {
  const secret = 'pa"ss\\word-1234';
  function masked(json: boolean, keepColour = false) {
    const secrets = new SecretList();
    secrets.add(secret, "test");
    const lines: string[] = [];
    const sink = createLogSink({ level: "DEBUG", json, write: (line) => lines.push(line), now: fixed, secrets, keepColour });
    sink.logger("driver.terraform").error(`apply failed: \u001b[31mX-API-Key: ${secret}\u001b[0m`, {
      error: new Error(`exit 1: ${secret}`), output: { lines: [`echo ${secret}`] }, [`k-${secret}`]: "v",
    });
    return lines[0]!;
  }

  it("masks every known secret (message, fields, errors, keys) and strips ANSI, in text lines", () => {
    const line = masked(false);
    expect(line).not.toContain("pa\"ss");
    expect(line).not.toContain("\u001b");
    expect(line).toContain("apply failed: X-API-Key: <redacted>");
    expect(line).toContain('error="exit 1: <redacted>"');
    expect(line).toContain("k-<redacted>=v");
  });

  it("masks the JSON-escaped spelling in JSON lines and never keeps colour there", () => {
    const line = masked(true, true);
    expect(line).not.toContain(JSON.stringify(secret).slice(1, -1));
    expect(line).not.toContain("\\u001b");
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed["@message"]).toBe("apply failed: X-API-Key: <redacted>");
    expect(parsed.output).toEqual({ lines: ["echo <redacted>"] });
  });

  it("keeps colour only for text lines to a terminal", () => {
    expect(masked(false, true)).toContain("\u001b[31m");
  });
});
