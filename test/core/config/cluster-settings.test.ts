/**
 * @module The settings beyond CTS for clusters (issue 16): `high_availability.cluster.mode` and the
 * registration check's `interval`/`timeout`, which bound crash failover. CTS's config (no mode, no
 * interval) still loads with CTS's meaning: single leader, check every 10s with a 2s timeout.
 */
import { afterAll, describe, expect, it } from "vitest";
import { issuesOf, loadFiles, removeConfigDirs } from "./config-dir.ts";

afterAll(removeConfigDirs);

const ha = (mode: string) => `
high_availability {
  cluster {
    name = "c"
${mode}
  }
}
`;

describe("cluster settings", () => {
  it("default to CTS's single leader and 10s / 2s check", async () => {
    const { config } = await loadFiles({ "a.hcl": ha("") });
    expect(config.high_availability!.cluster.mode).toBe("leader");
    expect(config.consul.service_registration.default_check).toMatchObject({ interval: 10_000, timeout: 2_000 });
  });

  it("read mode = \"shared\" and the check's interval and timeout", async () => {
    const { config } = await loadFiles({
      "a.hcl": `${ha(`    mode = "shared"`)}
consul {
  service_registration {
    default_check {
      interval = "1s"
      timeout  = "500ms"
    }
  }
}
`,
    });
    expect(config.high_availability!.cluster.mode).toBe("shared");
    expect(config.consul.service_registration.default_check).toMatchObject({ interval: 1000, timeout: 500 });
  });

  it("refuse an unknown mode naming the allowed ones", async () => {
    const issues = await issuesOf(loadFiles({ "a.hcl": ha(`    mode = "sharded"`) }));
    expect(issues).toEqual([{
      file: "a.hcl", path: "high_availability.cluster.mode",
      message: `must be "leader" (one leader runs every task, as CTS) or "shared" (every instance runs a share of the tasks), got "sharded"`,
    }]);
  });

  it("refuse a check interval that is not a duration", async () => {
    const issues = await issuesOf(loadFiles({ "a.hcl": `consul {\n  service_registration {\n    default_check { interval = "soon" }\n  }\n}\n` }));
    expect(issues).toEqual([expect.objectContaining({ path: "consul.service_registration.default_check.interval" })]);
  });
});
