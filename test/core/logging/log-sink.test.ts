import { describe, expect, it } from "vitest";
import { createLogSink } from "../../../core/logging/log-sink.ts";
import { parseLogLevel } from "../../../core/logging/log-level.ts";

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
