/** The real CLI's logs: JSON lines on request, the effective config at DEBUG, secrets never printed. */
import { describe, expect, it } from "vitest";
import { runCli } from "../../harness/run-cli.ts";

const config = "-config-file=test/fixtures/configs/exit-codes/debug-with-token.hcl";

describe("CLI logging", () => {
  it("prints JSON log lines with the redacted effective config and never the Consul token", async () => {
    const result = await runCli("node", ["start", "-once", config]);
    expect(result.code).toBe(16);
    const records = result.stderr.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line));
    const logged = records.find((record) => record["@message"] === "configuration");
    expect(logged["@module"]).toBe("ctrl");
    expect(logged["@level"]).toBe("debug");
    expect(logged.config.consul.token).toBe("<redacted>");
    expect(logged.config.consul.address).toBe("127.0.0.1:1");
    expect(result.stderr + result.stdout).not.toContain("token-that-must-never-be-printed");
  });
});
