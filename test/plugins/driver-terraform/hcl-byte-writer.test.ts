/**
 * The byte writer that terraform.tfvars is written into gives exactly the string encoder's text:
 * its inline escaping of printable ASCII and newlines, its hand-over to quoteHclString for
 * everything else, and UTF-8 for non-ASCII text (the bytes CTS users' modules read back).
 */
import { describe, expect, it } from "vitest";
import { HclByteWriter } from "../../../plugins/driver-terraform/src/hcl-byte-writer.ts";
import { quoteHclString } from "../../../plugins/driver-terraform/src/hcl-value.ts";
import { randomString, seededRandom } from "./random-values.ts";

/** Mostly printable ASCII with the characters the inline path escapes, and some that it hands over. */
const ASCII_HEAVY = ["a", "Z9", " ", "\"", "\\", "\n", "${", "$${", "$", "%{", "%%{", "%", "{", "}", "\t", "é", "😀", "\u0000"];

function asciiHeavy(random: () => number): string {
  let out = "";
  for (let n = Math.floor(random() * 8); n > 0; n--) out += ASCII_HEAVY[Math.floor(random() * ASCII_HEAVY.length)];
  return out;
}

describe("HclByteWriter", () => {
  it("quotes every string exactly as quoteHclString does, many values into one growing buffer", () => {
    const random = seededRandom(4242);
    const values: string[] = [];
    for (let i = 0; i < 20_000; i++) values.push(i % 2 ? asciiHeavy(random) : randomString(random));
    const writer = new HclByteWriter();
    for (const value of values) {
      writer.quoted(value);
      writer.text(",\n");
    }
    expect(writer.finish()).toBe(values.map((value) => `${quoteHclString(value)},\n`).join(""));
  });

  it("writes non-ASCII text and constant bytes as UTF-8, and reports lone surrogates as the encoder does", () => {
    const writer = new HclByteWriter();
    writer.text("a = ");
    writer.quoted("é 中文 😀 $${x} %{y}");
    const mark = writer.length;
    writer.text("\nb = ");
    writer.quoted("x\"y\\z\n");
    expect(new TextDecoder().decode(writer.bytesSince(mark))).toBe('\nb = "x\\"y\\\\z\\n"');
    writer.bytes(new TextEncoder().encode(" # ü"));
    expect(writer.finish()).toBe('a = "é 中文 😀 $$${x} %%{y}"\nb = "x\\"y\\\\z\\n" # ü');
    expect(() => new HclByteWriter().quoted("a\ud800b")).toThrow("unpaired UTF-16 surrogate");
  });
});
