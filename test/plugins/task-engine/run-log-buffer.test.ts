/**
 * A phase's output as a run record keeps it (beyond CTS): bounded in UTF-8 bytes, the start and the
 * end kept, the middle left out with a note saying how many bytes, never a character cut in half.
 */
import { describe, expect, it } from "vitest";
import { RunLogBuffer, utf8Bytes } from "../../../plugins/task-engine/src/run-log-buffer.ts";

describe("run log buffer", () => {
  it("keeps everything under the bound", () => {
    const log = new RunLogBuffer(1024);
    log.append("line 1\n");
    log.append("line 2\n");
    expect(log.snapshot()).toEqual({ text: "line 1\nline 2\n", bytes: 14 });
  });

  it("past the bound keeps the first quarter and the newest three quarters, and counts what went", () => {
    const log = new RunLogBuffer(400);
    const lines = Array.from({ length: 100 }, (_, n) => `line ${String(n).padStart(3, "0")} ✓\n`);
    for (const line of lines) log.append(line);
    const all = lines.join("");
    const { text, bytes, omitted_bytes } = log.snapshot();
    expect(bytes).toBe(utf8Bytes(all));
    expect(text.startsWith("line 000 ✓\n")).toBe(true);
    expect(text.endsWith("line 099 ✓\n")).toBe(true);
    const [head, tail] = text.split(/\n… [\d,]+ bytes of output left out here …\n/);
    expect(utf8Bytes(head!) + utf8Bytes(tail!) + omitted_bytes!).toBe(bytes);
    expect(utf8Bytes(head!) + utf8Bytes(tail!)).toBeLessThanOrEqual(400);
    expect(text).toContain(`${omitted_bytes!.toLocaleString("en-US")} bytes of output left out here`);
    // Whole lines on both sides of the cut, no broken character.
    expect(head!.endsWith("\n")).toBe(true);
    expect(text).not.toContain("\ufffd");
  });

  it("splits one large chunk between the start and the end", () => {
    const log = new RunLogBuffer(1024);
    log.append(`first line\n${"é".repeat(5000)}\nlast line\n`);
    const { text, omitted_bytes } = log.snapshot();
    expect(text.startsWith("first line\n")).toBe(true);
    expect(text.endsWith("\nlast line\n")).toBe(true);
    expect(omitted_bytes).toBeGreaterThan(8000);
    expect(text).not.toContain("\ufffd");
  });
});

describe("live output", () => {
  it("publishes at most 32 KiB of one burst (its end, at a line start), with the offset of what it publishes", async () => {
    const { LiveOutput, MAX_EVENT_BYTES } = await import("../../../plugins/task-engine/src/live-output.ts");
    const published: { offset: number; text: string }[] = [];
    const output = new LiveOutput({ limitBytes: 4096, clean: (text) => text, publish: (_phase, offset, text) => published.push({ offset, text }) });
    const flood = Array.from({ length: 20_000 }, (_, n) => `line ${n}\n`).join("");
    output.output("apply", flood);
    const logs = output.close();
    expect(published).toHaveLength(1);
    const [event] = published;
    expect(utf8Bytes(event!.text)).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(event!.text.endsWith("line 19999\n")).toBe(true);
    expect(event!.text.startsWith("line ")).toBe(true);
    expect(event!.offset + utf8Bytes(event!.text)).toBe(utf8Bytes(flood));
    // The record has the whole burst's count, its start and its end.
    expect(logs.apply!.bytes).toBe(utf8Bytes(flood));
    expect(logs.apply!.text.startsWith("line 0\n")).toBe(true);
  });
});
