/**
 * @module The `api {}` block (beyond CTS): without it the API is CTS's (every interface, no token,
 * 15 s to send a request); each setting read, the token from CTS_TOKEN or `{{ env }}` (a Vault
 * template stays for the kernel to read at start), and every bad value refused naming the field.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config/load-config.ts";
import { issuesOf, loadFiles, removeConfigDirs } from "./config-dir.ts";

afterAll(removeConfigDirs);

async function loadWithEnv(text: string, env: Record<string, string>) {
  const cwd = mkdtempSync(join(tmpdir(), "cts-api-block-"));
  try {
    writeFileSync(join(cwd, "a.hcl"), text);
    return await loadConfig({ paths: [{ kind: "file", path: "a.hcl" }], env, cwd, hostName: "testhost" });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe("api {} block", () => {
  it("defaults to CTS's API: every interface, no token, no other origin, 15s, 100 streams; the check calls localhost", async () => {
    const { config } = await loadFiles({ "a.hcl": "port = 9000\n" });
    expect(config.api).toEqual({ address: "", token: "", allowed_origins: [], request_timeout: 15_000, max_event_streams: 100 });
    expect(config.consul.service_registration.default_check.address).toBe("http://localhost:9000");
  });

  it("reads every setting; Consul's check follows a specific listen address", async () => {
    const { config } = await loadFiles({
      "a.hcl": `port = 9000
api {
  address           = "10.1.2.3"
  token             = "t0ken-value"
  allowed_origins   = ["https://ops.example.com", "http://localhost:3000"]
  request_timeout   = "30s"
  max_event_streams = 7
}
`,
    });
    expect(config.api).toEqual({
      address: "10.1.2.3", token: "t0ken-value", allowed_origins: ["https://ops.example.com", "http://localhost:3000"],
      request_timeout: 30_000, max_event_streams: 7,
    });
    expect(config.consul.service_registration.default_check.address).toBe("http://10.1.2.3:9000");
  });

  it("takes the token from CTS_TOKEN, or renders {{ env }} in it, and keeps those values for the masker", async () => {
    expect((await loadWithEnv("port = 1\n", { CTS_TOKEN: "from-env-1" })).config.api!.token).toBe("from-env-1");
    const loaded = await loadWithEnv('api {\n  token = "{{ env \\"MY_TOKEN\\" }}"\n}\n', { MY_TOKEN: "rendered-2", CTS_TOKEN: "ignored" });
    expect(loaded.config.api!.token).toBe("rendered-2");
    expect(loaded.templateSecrets).toEqual([{ value: "rendered-2", source: "env:MY_TOKEN" }]);
  });

  it("keeps a Vault template for the kernel, which needs Vault configured", async () => {
    const template = '{{ with secret \\"secret/cts\\" }}{{ .Data.data.token }}{{ end }}';
    const withVault = await loadFiles({ "a.hcl": `vault {\n  address = "http://127.0.0.1:8200"\n}\napi {\n  token = "${template}"\n}\n` });
    expect(withVault.config.api!.token).toContain("with secret");
    const issues = await issuesOf(loadFiles({ "a.hcl": `api {\n  token = "${template}"\n}\n` }));
    expect(issues).toEqual([expect.objectContaining({ path: "api.token", message: expect.stringMatching(/Vault is not configured/) })]);
  });

  it("refuses bad values, naming each field", async () => {
    const issues = await issuesOf(loadFiles({
      "a.hcl": `api {
  address           = "127.0.0.1:8558"
  token             = "{{ key \\"cts/token\\" }}"
  allowed_origins   = ["*", "https://ops.example.com/path", "ops.example.com"]
  request_timeout   = "10ms"
}
`,
    }));
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue.message]));
    expect(Object.keys(byPath).sort()).toEqual([
      "api.address", "api.allowed_origins[1]", "api.allowed_origins[2]", "api.request_timeout", "api.token",
    ]);
    expect(byPath["api.address"]).toMatch(/without a port/);
    expect(byPath["api.allowed_origins[1]"]).toMatch(/must be an origin such as "https:\/\/ops.example.com"/);
    expect(byPath["api.request_timeout"]).toMatch(/at least 1s/);
    const schema = await issuesOf(loadFiles({ "a.hcl": "api {\n  max_event_streams = 0\n  bind = \"x\"\n}\n" }));
    expect(schema.map((issue) => issue.path).sort()).toEqual(["api.bind", "api.max_event_streams"]);
  });
});
