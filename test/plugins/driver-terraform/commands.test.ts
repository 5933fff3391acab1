/** Command lines, environment, version parsing and options: pure, identical for Terraform and OpenTofu. */
import { describe, expect, test } from "vitest";
import { consulEnvironment, defaultStatePath } from "../../../plugins/driver-terraform/src/backend.ts";
import { normalizeTerraformOptions, terraformOptionsSchema } from "../../../plugins/driver-terraform/src/options.ts";
import { createPluginAjv } from "../../../core/kernel/plugin-ajv.ts";
import {
  flavourOf, parseVersionJson, parseVersionText,
} from "../../../plugins/driver-terraform/src/terraform-binary.ts";
import { describeLock, stateLockError } from "../../../plugins/driver-terraform/src/state-lock.ts";
import { terraformErrorText } from "../../../plugins/driver-terraform/src/terraform-cli.ts";
import {
  applyArgs, initArgs, isMissingWorkspaceError, isWorkspaceExistsError, planArgs, terraformEnvironment, validateArgs,
  workspaceNewArgs, workspaceSelectArgs,
} from "../../../plugins/driver-terraform/src/terraform-commands.ts";
import { consulConfig } from "../../../harness/driver-terraform/fixtures.ts";

describe("command lines", () => {
  test("CTS's flags for init, workspace, validate, plan and apply, plus -lock-timeout wherever the lock is taken", () => {
    expect(initArgs("5m")).toEqual(["init", "-no-color", "-input=false", "-backend=true", "-get=true", "-upgrade=false", "-force-copy", "-lock-timeout=5m"]);
    expect(workspaceNewArgs("web", "5m")).toEqual(["workspace", "new", "-lock-timeout=5m", "web"]);
    expect(workspaceSelectArgs("web")).toEqual(["workspace", "select", "web"]);
    expect(validateArgs()).toEqual(["validate", "-no-color", "-json"]);
    expect(planArgs("30s")).toEqual(["plan", "-no-color", "-input=false", "-detailed-exitcode", "-lock-timeout=30s", "-lock=true", "-parallelism=10", "-refresh=true"]);
    expect(applyArgs("5m")).toEqual(["apply", "-no-color", "-auto-approve", "-input=false", "-lock=true", "-lock-timeout=5m", "-parallelism=10", "-refresh=true"]);
    // CTS's own value (tfexec's default) when none is given.
    expect(planArgs()).toContain("-lock-timeout=0s");
  });

  test("tofu binaries are recognised by name; versions by -json or text output", () => {
    expect(flavourOf("/usr/local/bin/tofu")).toBe("tofu");
    expect(flavourOf("C:\\tools\\tofu.exe")).toBe("tofu");
    expect(flavourOf("/opt/terraform")).toBe("terraform");
    expect(parseVersionJson('{"terraform_version":"1.8.2","platform":"linux_amd64"}', "tofu")).toEqual({ flavour: "tofu", version: "1.8.2" });
    expect(parseVersionJson("not json", "terraform")).toBeUndefined();
    expect(parseVersionText("OpenTofu v1.9.0\non linux_amd64\n")).toEqual({ flavour: "tofu", version: "1.9.0" });
    expect(parseVersionText("Terraform v0.12.31\n")).toEqual({ flavour: "terraform", version: "0.12.31" });
  });
});

describe("environment", () => {
  test("task_env and Consul variables, the token only here, trace log when persist_log", () => {
    const consul = consulConfig({
      address: "https://consul:8501", token: "s3cr3t",
      tls: { enabled: true, verify: false, ca_cert: "/ca.pem", ca_path: "", cert: "/c.pem", key: "/k.pem", server_name: "consul" },
    });
    const env = terraformEnvironment({
      providerEnv: [{ A: "1" }, { A: "2", B: "3" }], consulEnv: consulEnvironment(consul), logPath: "/w/terraform.log",
    });
    expect(env).toMatchObject({
      TF_IN_AUTOMATION: "1", A: "2", B: "3", CONSUL_HTTP_ADDR: "https://consul:8501", CONSUL_HTTP_TOKEN: "s3cr3t",
      CONSUL_HTTP_SSL: "true", CONSUL_HTTP_SSL_VERIFY: "false", CONSUL_CACERT: "/ca.pem", CONSUL_CLIENT_CERT: "/c.pem",
      CONSUL_CLIENT_KEY: "/k.pem", CONSUL_TLS_SERVER_NAME: "consul", TF_LOG: "TRACE", TF_LOG_PATH: "/w/terraform.log",
    });
    expect(terraformEnvironment({ providerEnv: [] })).not.toHaveProperty("TF_LOG_PATH");
    expect(consulEnvironment(consulConfig())).not.toHaveProperty("CONSUL_HTTP_TOKEN");
  });

  test("error texts", () => {
    expect(isMissingWorkspaceError('Error: Currently selected workspace "web" does not exist')).toBe(true);
    expect(isMissingWorkspaceError("Error: Failed to select workspace: ...")).toBe(true);
    expect(isWorkspaceExistsError('Workspace "web" already exists')).toBe(true);
    // The Consul backend's load-time lock error, as Terraform 1.11 prints it.
    const consulLock = `Error: Error loading state: failed to lock state in Consul: Lock Info:
  ID:        9b0100ee-6ae2-4cbe-b932-2295726abe59
  Path:      consul-terraform-sync/terraform-env:t1
  Operation: OperationTypeApply
  Who:       root@vm
  Version:   1.11.4
  Created:   2026-11-26 03:19:25.598095565 +0000 UTC
  Info:      consul session: 9b0100ee-6ae2-4cbe-b932-2295726abe59`;
    expect(stateLockError(consulLock)).toEqual({
      id: "9b0100ee-6ae2-4cbe-b932-2295726abe59", path: "consul-terraform-sync/terraform-env:t1", who: "root@vm",
      operation: "OperationTypeApply", created: "2026-11-26 03:19:25.598095565 +0000 UTC",
    });
    expect(describeLock(stateLockError(consulLock)!)).toBe(
      "lock ID 9b0100ee-6ae2-4cbe-b932-2295726abe59, path consul-terraform-sync/terraform-env:t1, held by root@vm, operation OperationTypeApply, since 2026-11-26 03:19:25.598095565 +0000 UTC",
    );
    expect(stateLockError("│ Error: Error acquiring the state lock\n│ \n│ Lock Info:\n│   ID:        abc\n")).toEqual({ id: "abc" });
    expect(stateLockError("Error: Bad thing")).toBeUndefined();
    expect(terraformErrorText({ stdout: "Initializing...\n", stderr: "╷\n│ Error: Bad thing\n│ \n│ detail here\n╵\n" }))
      .toBe("Error: Bad thing\n\ndetail here\n\nInitializing...");
  });
});

describe("options and backend path", () => {
  test("kv_path rule", () => {
    expect(defaultStatePath("consul-terraform-sync/")).toBe("consul-terraform-sync/terraform");
    expect(defaultStatePath("team/cts")).toBe("team/cts/terraform");
    expect(defaultStatePath("prod/terraform/")).toBe("prod/terraform");
    expect(defaultStatePath("")).toBe("consul-terraform-sync/terraform");
  });

  test("the driver's view of the checked block: defaults, the parsed lock timeout, the backend as type and attributes", () => {
    expect(normalizeTerraformOptions({ backend: { s3: { bucket: "b" } }, required_providers: { x: "1.0" }, version: "v1.5.0" }))
      .toMatchObject({ backend: { type: "s3", config: { bucket: "b" } }, required_providers: { x: "1.0" }, version: "1.5.0", log: false });
    expect(normalizeTerraformOptions({})).toMatchObject({ lock_timeout: "5m", lockTimeoutMs: 300_000 });
    expect(normalizeTerraformOptions({ lock_timeout: "1m30s" })).toMatchObject({ lock_timeout: "1m30s", lockTimeoutMs: 90_000 });
    // The schema's go-duration admits a sign; the view refuses a negative wait.
    expect(() => normalizeTerraformOptions({ lock_timeout: "-1s" }))
      .toThrow(/lock_timeout "-1s" is not a duration; expected a Go duration such as "5m"/);
  });

  test("the schema, the block's one check, refuses an unknown backend type, two backends and a lock timeout that is no duration", () => {
    const validate = createPluginAjv().compile(terraformOptionsSchema);
    expect(validate({ backend: { s3: { bucket: "b" } }, lock_timeout: "1m30s" })).toBe(true);
    expect(validate({ backend: { etcd: {} } })).toBe(false);
    expect(validate({ backend: { s3: {}, gcs: {} } })).toBe(false);
    expect(validate({ lock_timeout: "5 minutes" })).toBe(false);
  });
});
