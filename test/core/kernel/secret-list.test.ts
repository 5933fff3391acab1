import { describe, expect, it } from "vitest";
import { SecretList } from "../../../core/kernel/secret-list.ts";

describe("the kernel's secret list", () => {
  it("hides a secret in text, in its JSON-escaped form and in the shell's quoted forms", () => {
    const secrets = new SecretList();
    secrets.add(`pa"ss'wo$rd`, "vault:secret/panos");
    const raw = `echo pa"ss'wo$rd`;
    const json = JSON.stringify({ output: raw });
    const singleQuoted = `KEY='pa"ss'\\''wo$rd'`;
    const doubleQuoted = `KEY="pa\\"ss'wo\\$rd"`;
    for (const text of [raw, json, singleQuoted, doubleQuoted]) {
      expect(secrets.mask(text), text).not.toMatch(/ss.{0,4}wo/);
      expect(secrets.mask(text)).toContain("<redacted>");
    }
  });

  it("hides a longer secret whole when it contains a shorter one", () => {
    const secrets = new SecretList();
    secrets.add("abcd", "a");
    secrets.add("abcdefgh", "b");
    expect(secrets.mask("x abcdefgh y abcd")).toBe("x <redacted> y <redacted>");
  });

  it("ignores values too short to hide safely, and counts each secret once", () => {
    const secrets = new SecretList();
    secrets.add("on", "a");
    secrets.add("", "b");
    secrets.add("s3cret", "c");
    secrets.add("s3cret", "d");
    expect(secrets.size).toBe(1);
    expect(secrets.mask("on s3cret")).toBe("on <redacted>");
  });

  it("masks every string of a value, keys included, and leaves other values as they are", () => {
    const secrets = new SecretList();
    secrets.add("tok-123456", "t");
    const when = new Date(0);
    const masked = secrets.maskValue({ list: ["tok-123456", 3, null], nested: { "tok-123456": true, when } });
    expect(masked).toEqual({ list: ["<redacted>", 3, null], nested: { "<redacted>": true, when } });
    expect(secrets.maskValue("plain")).toBe("plain");
  });
});
