/** The exposition writer's edge cases, read back by the strict test parser. */
import { describe, expect, it } from "vitest";
import { escapeLabelValue, renderExposition } from "../../../plugins/metrics/mod.ts";
import { parseExposition, sampleValue } from "./exposition-parser.ts";

describe("renderExposition", () => {
  it("writes HELP, TYPE and samples, with Go's spellings of special floats", () => {
    const text = renderExposition([
      { name: "a_total", help: "line one\nback\\slash \"kept\"", type: "counter", samples: [{ labels: { x: "1", y: "2" }, value: 3 }] },
      { name: "b", help: "floats", type: "gauge", samples: [{ value: Infinity }, { labels: { k: "n" }, value: -Infinity }, { labels: { k: "nan" }, value: NaN }] },
      { name: "c", help: "empty family", type: "gauge", samples: [] },
    ]);
    expect(text.split("\n")).toEqual([
      '# HELP a_total line one\\nback\\\\slash "kept"', "# TYPE a_total counter", 'a_total{x="1",y="2"} 3',
      "# HELP b floats", "# TYPE b gauge", "b +Inf", 'b{k="n"} -Inf', 'b{k="nan"} NaN',
      "# HELP c empty family", "# TYPE c gauge", "",
    ]);
    const parsed = parseExposition(text);
    expect(sampleValue(parsed, "a_total", { x: "1", y: "2" })).toBe(3);
    expect(sampleValue(parsed, "b", { k: "n" })).toBe(-Infinity);
    expect(parsed.types.get("c")).toBe("gauge");
  });

  it("escapes exactly backslash, double quote and newline in label values", () => {
    expect(escapeLabelValue('a\\b"c\nd\te')).toBe('a\\\\b\\"c\\nd\te');
    const parsed = parseExposition(renderExposition([
      { name: "m", help: "h", type: "gauge", samples: [{ labels: { v: 'a\\b"c\nd\te' }, value: 1 }] },
    ]));
    expect(parsed.samples[0]!.labels.v).toBe('a\\b"c\nd\te');
  });

  it("is rejected by the parser when a line is malformed", () => {
    expect(() => parseExposition('m{v="unterminated} 1\n')).toThrow();
    expect(() => parseExposition("m 1 2\n")).toThrow();
    expect(() => parseExposition('m{v="a\\t"} 1\n')).toThrow();
  });
});
