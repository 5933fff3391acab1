/**
 * Issue 24 item 6: config edge cases through the real CLI (`validate`) and the real daemon's
 * `POST /v1/tasks`. On main a task name Terraform refuses as a workspace passed both (then the API
 * answered 500 and `-once` exit 11), deep nesting failed with "Maximum call stack size exceeded" and
 * no line, an overflowing duration and a float or 1e308 for an integer field were taken silently, a
 * scheme-less `vault.address` too, and a 2 MB value was echoed whole. CTS's own decoding decides:
 * what CTS refuses is refused (durations Go cannot hold, Vault addresses Go cannot parse); what CTS
 * takes (a float truncated for an integer, a Vault address that parses with another scheme) is
 * taken with a warning.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemon } from "../helpers/daemon-with-api.ts";
import { runCli } from "../../harness/run-cli.ts";

let dir: string;
let consul: TestConsulDevServer;
let daemon: DaemonProcess;
const TASK = (name = "t") => `task {\n  name   = "${name}"\n  module = "./m"\n  condition "services" { names = ["web"] }\n}\n`;

/** `validate` of a directory of config files (each process start costs seconds: the cases share three runs). */
async function validate(name: string, files: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const at = join(dir, name);
  mkdirSync(at);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(at, file), text);
  const result = await runCli("node", ["validate", `-config-dir=${at}`], { cwd: dir });
  return { code: result.code, out: result.stdout + result.stderr };
}

let refused: { code: number | null; out: string };
let checked: { code: number | null; out: string };
let unicode: { code: number | null; out: string };
let warned: { code: number | null; out: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cts-config-edges-"));
  consul = await startConsulDevServer();
  daemon = await startDaemon({
    dir,
    flags: ["-client-type=development"],
    config: (port) => `port = ${port}\nconsul {\n  address = "${consul.address}"\n  service_registration { enabled = false }\n}\n`,
  });
  [refused, checked, unicode, warned] = await Promise.all([
    // Problems of the files themselves, all reported by one run.
    validate("refused", {
      "deep.hcl": `variables_x = ${"[".repeat(3000)}1${"]".repeat(3000)}\n`,
      "deep.json": `{"task": [{"name": "t", "module": "./m",\n "condition": {"services": {"names": ["web"], "filter": ${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}}}}]}`,
      "long.hcl": `buffer_period {\n  min = "99999999999999999999h"\n}\n`,
      "huge.hcl": `max_concurrent_runs = 1e308\n`,
    }),
    // Rules across the merged files, checked once each file is valid.
    validate("checked", {
      "vault.hcl": `vault {\n  address = "127.0.0.1:8200"\n}\n`,
      "big.hcl": `log_level = "${"x".repeat(2_000_000)}"\n${TASK()}`,
    }),
    // A rule of the driver, checked once the files are valid.
    validate("unicode", { "unicode.hcl": TASK("wéb") }),
    validate("warned", { "float.hcl": `port = 8558.7\n${TASK()}`, "vault.hcl": `vault {\n  address = "vault.example:8200"\n}\n` }),
  ]);
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  await consul?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const post = (task: unknown) => daemon.api("POST", "/v1/tasks", { task });
const errorOf = (answer: { json: Record<string, unknown> } | undefined) => (answer?.json["error"] as { message: string } | undefined)?.message ?? "";

describe("config edge cases in validate", () => {
  it("refuses a task name Terraform cannot use as a workspace, stating the rule", () => {
    expect(unicode.code).not.toBe(0);
    expect(unicode.out).toMatch(/unicode\.hcl: task\[0\]\.name: "wéb" cannot name a Terraform workspace/);
    expect(unicode.out).toContain('only ASCII letters, digits, "_" and "-"');
  });

  it("refuses deep nesting with the line, in HCL and in JSON", () => {
    expect(refused.code).not.toBe(0);
    expect(refused.out).toMatch(/deep\.hcl: invalid HCL: line 1,115: nested more than 100 levels deep/);
    expect(refused.out).toMatch(/deep\.json: invalid JSON: line 2,\d+: nested more than 100 levels deep/);
    expect(refused.out).not.toContain("call stack");
  });

  it("refuses a duration Go cannot hold, as CTS does", () => {
    expect(refused.out).toContain('long.hcl: buffer_period.min: "99999999999999999999h" is longer than Go\'s longest duration (2562047h47m16s): CTS refuses it too');
  });

  it("takes a float for an integer field as CTS does (truncated), with a warning; refuses 1e308", () => {
    expect(warned.code).toBe(0);
    expect(warned.out).toMatch(/Warning: \S*float\.hcl: port: 8558\.7 is not a whole number: read as 8558, as CTS reads it/);
    expect(refused.out).toMatch(/huge\.hcl: max_concurrent_runs: 1e\+308 is out of range: expected a whole number/);
  });

  it("refuses a vault.address Go cannot parse; warns about one with no http(s) scheme", () => {
    expect(checked.code).not.toBe(0);
    expect(checked.out).toContain('vault.address: must be a URL such as "https://127.0.0.1:8200", got "127.0.0.1:8200"');
    expect(warned.out).toMatch(/Warning: \S*vault\.hcl: vault\.address: "vault\.example:8200" has no http:\/\/ or https:\/\/ scheme/);
  });

  it("quotes only a short prefix of a 2 MB value", () => {
    expect(checked.out).toMatch(/big\.hcl: log_level: must be one of .*, got "x{64}…" \(2000000 characters\)/);
    expect(checked.out.length).toBeLessThan(5000);
  });
});

describe("config edge cases in POST /v1/tasks", () => {
  const task = (fields: Record<string, unknown>) => ({ name: "t", module: "./m", condition: { services: { names: ["web"] } }, ...fields });

  it("refuses a task name Terraform cannot use as a workspace with 400 and the rule", async () => {
    const answer = await post(task({ name: "wéb" }));
    expect(answer?.status).toBe(400);
    expect(errorOf(answer)).toContain('"wéb" cannot name a Terraform workspace');
  });

  it("refuses a deeply nested body with 400 and where", async () => {
    const response = await fetch(`${daemon.url}/v1/tasks`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: `{"task": ${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message)
      .toBe("invalid request: request body nests more than 100 levels deep at line 1, column 505");
  });

  it("refuses a buffer period Go cannot hold", async () => {
    const answer = await post(task({ buffer_period: { enabled: true, min: "99999999999999999999h", max: "1s" } }));
    expect(answer?.status).toBe(400);
    expect(errorOf(answer)).toContain("99999999999999999999h");
  });

  it("quotes only a short prefix of a long value", async () => {
    for (const fields of [
      { buffer_period: { enabled: true, min: "x".repeat(500_000), max: "1s" } },
      { condition: { services: { regexp: `(${"x".repeat(500_000)}` } } },
    ]) {
      const answer = await post(task(fields));
      expect(answer?.status).toBe(400);
      expect(errorOf(answer)).toMatch(/ \(\d+ characters\)/);
      expect(errorOf(answer).length).toBeLessThan(1100);
    }
  });
});
