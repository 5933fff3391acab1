import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { loadConfig, type LoadConfigOptions } from "../../../core/config/load-config.ts";
import { isConfigError, type ConfigIssue } from "../../../core/config/config-error.ts";
import { ownedConfigOf, ownerIssuesOf, removeConfigDirs } from "./config-dir.ts";

const root = mkdtempSync(join(tmpdir(), "cts-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterAll(removeConfigDirs);
let counter = 0;

/** Writes files into a fresh directory and returns it. */
function dir(files: Record<string, string>): string {
  const path = join(root, `case-${counter++}`);
  mkdirSync(path, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(path, name, ".."), { recursive: true });
    writeFileSync(join(path, name), text);
  }
  return path;
}

function load(cwd: string, paths: LoadConfigOptions["paths"], env: Record<string, string> = {}) {
  return loadConfig({ paths, env, cwd, hostName: "testhost" });
}

async function issuesOf(promise: Promise<unknown>): Promise<ConfigIssue[]> {
  try {
    await promise;
  } catch (error) {
    if (isConfigError(error)) return [...error.issues];
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const TASK = (name: string, extra = "") => `
task {
  name   = "${name}"
  module = "./m"
  condition "services" {
    names = ["web"]
  }
  ${extra}
}
`;

describe("defaults", () => {
  test("an empty config file gets every CTS default", async () => {
    const cwd = dir({ "a.hcl": "log_level = \"info\"\n" });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }]);
    expect(config).toMatchObject({
      log_level: "INFO", log_json: false, port: 8558, working_dir: "sync-tasks", id: "cts-testhost",
      syslog: { enabled: false, facility: "LOCAL0", name: "consul-terraform-sync" },
      buffer_period: { enabled: true, min: 5_000, max: 20_000 },
      tls: { enabled: false, cert: "", key: "", verify_incoming: false },
      driver: { name: "terraform", options: {} },
      terraform_providers: [], tasks: [], plugins: [], events_per_task: 5, max_concurrent_runs: 0,
      sources: [join(cwd, "a.hcl")],
    });
    expect(config.consul).toEqual({
      address: "localhost:8500", token: "", kv_path: "consul-terraform-sync/", kv_namespace: "",
      auth: { enabled: false, username: "", password: "" },
      tls: { enabled: false, verify: true, ca_cert: "", ca_path: "", cert: "", key: "", server_name: "" },
      transport: {
        dial_keep_alive: 30_000, dial_timeout: 30_000, disable_keep_alives: false, idle_conn_timeout: 5_000,
        max_idle_conns: 0, max_idle_conns_per_host: 100, tls_handshake_timeout: 10_000,
      },
      service_registration: {
        enabled: true, service_name: "consul-terraform-sync", address: "", namespace: "",
        default_check: { enabled: true, address: "http://localhost:8558", interval: 10_000, timeout: 2_000 },
      },
    });
    expect(config.high_availability).toBeUndefined();
    expect(Object.isFrozen(config.consul.tls)).toBe(true);
  });

  // The condition is kept as written: its owner's defaults are the kernel's (test/core/kernel/complete-task.test.ts).
  test("task defaults: working dir, enabled, inherited buffer period, driver; the condition as written", async () => {
    const cwd = dir({
      "a.hcl": `working_dir = "wd"\nbuffer_period {\n  min = "2s"\n}\ndriver "echo" {}\n${TASK("t1")}`,
    });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }]);
    expect(config.tasks[0]).toEqual({
      name: "t1", description: "", enabled: true, providers: [], module: "./m", version: "", variables: {},
      variable_files: [], working_dir: "wd/t1", buffer_period: { enabled: true, min: 2_000, max: 8_000 },
      buffer_period_configured: false,
      condition: { type: "services", names: ["web"] },
      module_input: [], driver: "echo",
    });
  });

  test("syslog, API tls and consul auth/tls are enabled when their other fields are set", async () => {
    const cwd = dir({
      "a.hcl": `syslog {\n  name = "x"\n}\ntls {\n  cert = "c.pem"\n  key = "k.pem"\n}\n` +
        `consul {\n  auth {\n    username = "u"\n  }\n  tls {\n    verify = false\n  }\n}\n`,
    });
    // CTS loads the API's key pair with the config (a pair that does not match is refused at load).
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
      "-subj", "/CN=localhost", "-keyout", "k.pem", "-out", "c.pem"], { cwd, stdio: "ignore" });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }]);
    expect(config.syslog.enabled).toBe(true);
    expect(config.tls.enabled).toBe(true);
    expect(config.consul.auth.enabled).toBe(true);
    expect(config.consul.tls).toMatchObject({ enabled: true, verify: false });
    expect(config.consul.service_registration.default_check.address).toBe("https://localhost:8558");
  });
});

describe("environment fallbacks (§1.4)", () => {
  const env = {
    CONSUL_HTTP_ADDR: "consul.example:8501", CONSUL_HTTP_TOKEN: "http-token", CONSUL_TOKEN: "token",
    CONSUL_CACERT: "/ca.pem", CONSUL_CAPATH: "/cas", CONSUL_CLIENT_CERT: "/c.pem", CONSUL_CLIENT_KEY: "/k.pem",
    CONSUL_TLS_SERVER_NAME: "consul.local", VAULT_ADDR: "https://vault:8200", VAULT_TOKEN: "vt",
  };

  test("env fills what the files leave empty; CONSUL_TOKEN wins over CONSUL_HTTP_TOKEN", async () => {
    const cwd = dir({ "a.hcl": "port = 9000\n" });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }], env);
    expect(config.consul.address).toBe("consul.example:8501");
    expect(config.consul.token).toBe("token");
    expect(config.consul.tls).toEqual({
      enabled: false, verify: true, ca_cert: "/ca.pem", ca_path: "/cas", cert: "/c.pem", key: "/k.pem",
      server_name: "consul.local",
    });
    expect(config.vault).toMatchObject({ enabled: true, address: "https://vault:8200", token: "vt", renew_token: true });
  });

  test("CONSUL_HTTP_TOKEN is used when CONSUL_TOKEN is absent; files win over env", async () => {
    const cwd = dir({ "a.hcl": `consul {\n  address = "file:8500"\n  tls {\n    ca_cert = "/file-ca.pem"\n  }\n}\n` });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }], { ...env, CONSUL_TOKEN: undefined! });
    expect(config.consul.address).toBe("file:8500");
    expect(config.consul.token).toBe("http-token");
    expect(config.consul.tls.ca_cert).toBe("/file-ca.pem");
    expect(config.consul.tls.enabled).toBe(true);
  });
});

describe("merging files and directories (§1.1)", () => {
  test("scalars overwrite, blocks merge field by field, tasks/providers/plugins append, in the order given", async () => {
    const cwd = dir({
      "a.hcl": `port = 1\nconsul {\n  address = "a:1"\n  token = "ta"\n}\n` +
        `driver "terraform" {\n  backend "consul" {\n    path = "p"\n  }\n}\n` +
        `terraform_provider "local" {}\n${TASK("one")}`,
      "d/20-b.json": JSON.stringify({
        port: 2,
        consul: { address: "b:2" },
        driver: { terraform: { backend: { consul: { gzip: false } }, log: true } },
        terraform_provider: [{ null: { alias: "x" } }],
        task: [{ name: "two", module: "./m", condition: { "consul-kv": { path: "k" } } }],
      }),
      "d/10-a.hcl": TASK("zero"),
      "d/notes.txt": "ignored",
      "d/empty.hcl": "",
      "d/sub/nested.hcl": TASK("never"),
    });
    const loaded = await load(cwd, [{ kind: "dir", path: "d" }, { kind: "file", path: "a.hcl" }]);
    const { config } = loaded;
    expect(config.sources).toEqual([join(cwd, "d/10-a.hcl"), join(cwd, "d/20-b.json"), join(cwd, "a.hcl")]);
    expect(config.port).toBe(1);
    expect(config.consul.address).toBe("a:1");
    expect(config.consul.token).toBe("ta");
    expect(config.driver).toEqual({
      name: "terraform", options: { backend: { consul: { gzip: false, path: "p" } }, log: true },
    });
    expect(config.tasks.map((task) => task.name)).toEqual(["zero", "two", "one"]);
    expect(config.terraform_providers.map((provider) => provider.id)).toEqual(["null.x", "local"]);
    expect(loaded.fileOf("task[1].condition")).toBe("d/20-b.json");
    expect(loaded.fileOf("tasks[2]")).toBe("a.hcl");
    expect(loaded.fileOf("port")).toBe("a.hcl");
    expect(loaded.fileOf("driver.terraform.log")).toBe("d/20-b.json");
    expect(loaded.fileOf("driver.terraform.backend.consul.path")).toBe("a.hcl");
  });

  test("CTS JSON and HCL spell blocks differently but mean the same", async () => {
    const reference = await load(process.cwd(), [{ kind: "file", path: "examples/configs/cts-reference.hcl" }]);
    const twin = await load(process.cwd(), [{ kind: "file", path: "examples/configs/cts-reference.json" }]);
    expect({ ...twin.config, sources: [] }).toEqual({ ...reference.config, sources: [] });
    expect(reference.config.tasks).toHaveLength(5);
    expect(reference.config.plugins).toEqual([{
      name: "driver-echo", source: join(process.cwd(), "examples/cts-driver-echo"),
      options: { driverName: "echo", pretty: true },
    }]);
  });

  test("JSON blocks may be objects or arrays; module_input may repeat", async () => {
    const cwd = dir({
      "a.json": JSON.stringify({
        consul: [{ address: "x:1" }],
        task: {
          name: "t", module: "./m", condition: [{ "catalog-services": { regexp: ".*" } }],
          module_input: { "consul-kv": { path: "k" } },
        },
        terraform_provider: { aws: { region: "r", task_env: { A: "b" } } },
      }),
    });
    const { config } = await load(cwd, [{ kind: "file", path: "a.json" }]);
    expect(config.consul.address).toBe("x:1");
    expect(config.tasks[0]!.condition.type).toBe("catalog-services");
    expect(config.tasks[0]!.module_input).toEqual([{ type: "consul-kv", path: "k" }]);
    expect(config.terraform_providers).toEqual([{ id: "aws", name: "aws", arguments: { region: "r" }, task_env: { A: "b" } }]);
  });
});

describe("errors name file, field and expectation, all at once", () => {
  test("problems in several files are reported together with global task indexes", async () => {
    const cwd = dir({
      "a.hcl": `${TASK("ok")}\nconsul {\n  adress = "x"\n}\n`,
      "b.hcl": `port = "eighty"\n${TASK("bad name")}`,
    });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }, { kind: "file", path: "b.hcl" }]));
    expect(issues).toEqual([
      { file: "a.hcl", path: "consul.adress", message: `unknown field "adress" (did you mean "address"?)` },
      { file: "b.hcl", path: "port", message: `must be a whole number, got "eighty"` },
    ]);
  });

  test("cross-field problems of tasks carry the file of the task", async () => {
    const cwd = dir({
      "a.hcl": TASK("a"),
      "b.hcl": `task {\n  name = "../escape"\n  module = "./m"\n  condition "schedule" {\n    cron = "not a cron"\n  }\n` +
        `  module_input "services" {\n    names = ["x"]\n  }\n  module_input "services" {\n    regexp = "y"\n  }\n}\n` +
        `task {\n  name = "c"\n  module = "./m"\n  condition "services" {\n    regexp = "(unclosed"\n  }\n` +
        `  description = "{{ env \\"X\\" }}"\n}\n`,
    });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }, { kind: "file", path: "b.hcl" }]));
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue]));
    expect(issues.every((issue) => issue.file === "b.hcl")).toBe(true);
    expect(byPath["task[1].name"]?.message).toContain("is not valid");
    expect(byPath["task[2].description"]?.message).toContain("only allowed in terraform_provider blocks");
  });

  test("a condition's own rules are its plugin's: the kernel reports them with the file of the task", async () => {
    const issues = await ownerIssuesOf({
      "a.hcl": `task {\n  name = "s"\n  module = "./m"\n  condition "schedule" {\n    cron = "not a cron"\n  }\n` +
        `  module_input "services" {\n    names = ["x"]\n    regexp = "x"\n  }\n}\n` +
        `task {\n  name = "c"\n  module = "./m"\n  condition "services" {\n    regexp = "(unclosed"\n  }\n}\n`,
    });
    const byPath = Object.fromEntries(issues.map((issue) => [issue.path, issue]));
    expect(issues.every((issue) => issue.file === "a.hcl")).toBe(true);
    expect(byPath["task[0].condition.schedule.cron"]?.message).toContain("is not a valid cron expression");
    expect(byPath["task[0].module_input[0].services.regexp"]?.message).toBe("regexp and names are both set: configure exactly one of them");
    expect(byPath["task[1].condition.services.regexp"]?.message).toContain("is not a valid RE2 regular expression");
  });

  test("two module_inputs of one type conflict, with the file of the task", async () => {
    const issues = await ownerIssuesOf({
      "a.hcl": `task {\n  name = "s"\n  module = "./m"\n  condition "schedule" {\n    cron = "* * * * *"\n  }\n` +
        `  module_input "services" {\n    names = ["x"]\n  }\n  module_input "services" {\n    regexp = "y"\n  }\n}\n`,
    });
    expect(issues).toEqual([{
      file: "a.hcl", path: "task[0].module_input[1].services",
      message: `"services" is already provided by module_input[0].services; each input may have one source`,
    }]);
  });

  // CTS: each input variable has one source. Which variable a block fills is its owner's word
  // (`publishes`), so the kernel checks this once the plugins registered their blocks.
  test("a condition and a module_input of the same type conflict", async () => {
    const issues = await ownerIssuesOf({ "a.hcl": TASK("t", `module_input "services" {\n    names = ["x"]\n  }`) });
    expect(issues).toEqual([{
      file: "a.hcl", path: "task[0].module_input[0].services",
      message: `"services" is already provided by condition.services; each input may have one source`,
    }]);
  });

  test("a singular block twice in one file, or two drivers, is an error", async () => {
    const cwd = dir({ "a.hcl": `consul {}\nconsul {}\ndriver "a" {}\ndriver "b" {}\n` });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }]));
    expect(issues).toEqual([
      { file: "a.hcl", path: "consul", message: `only one "consul" block can be configured` },
      { file: "a.hcl", path: "driver", message: `only one "driver" block can be configured` },
    ]);
  });

  test("API TLS, log level, duplicate providers, missing condition", async () => {
    const cwd = dir({
      "a.hcl": `log_level = "loud"\ntls {\n  cert = "c.pem"\n  verify_incoming = true\n}\n` +
        `terraform_provider "aws" {}\nterraform_provider "aws" {}\n` +
        `task {\n  name = "t"\n  module = "./m"\n}\n`,
    });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }]));
    expect(issues.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "task[0].condition: is required: a task needs one condition block, e.g. condition \"services\" { names = [\"web\"] }",
      "log_level: must be one of TRACE, DEBUG, INFO, WARN, ERR, got \"loud\"",
      "terraform_provider[1].aws: duplicate terraform_provider \"aws\": give one of them an alias",
      "tls.key: tls is enabled: both cert and key are required",
      "tls.verify_incoming: requires ca_cert or ca_path to verify client certificates",
    ]);
  });

  test("nothing to load, or a missing path", async () => {
    const cwd = dir({ "notes.txt": "x" });
    expect(await issuesOf(load(cwd, [{ kind: "dir", path: "." }]))).toEqual([
      { file: "", path: "", message: "no configuration files (.hcl or .json) found in ." },
    ]);
    expect(await issuesOf(load(cwd, [{ kind: "file", path: "nope.hcl" }]))).toEqual([
      { file: "nope.hcl", path: "", message: "config file does not exist" },
    ]);
  });

  test("the error message lists every issue", async () => {
    const cwd = dir({ "a.hcl": `port = "x"\nid = ["a", "b"]\n` });
    await expect(load(cwd, [{ kind: "file", path: "a.hcl" }])).rejects.toThrow(
      "Cannot load configuration: 2 errors\n  * a.hcl: port: must be a whole number, got \"x\"\n" +
        "  * a.hcl: id: must be a string, got a list",
    );
  });
});

describe("variable files and deprecated fields", () => {
  test("variable_files are read into variables as HCL expressions; variables win", async () => {
    const cwd = dir({
      "v1.tfvars": `a = "one"\nb = 2\nc = ["x", "y"]\n`,
      "v2.tfvars": `a = "two"\nd = true\n`,
      "a.hcl": TASK("t", `variable_files = ["v1.tfvars", "v2.tfvars"]\n  variables = {\n    d = "false"\n  }`),
    });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }]);
    expect(config.tasks[0]!.variables).toEqual({ a: "\"two\"", b: "2", c: "[\"x\",\"y\"]", d: "false" });
  });

  // CTS: a task's deprecated `services` list (with no condition block) is a services condition on
  // the services it names, `service` blocks naming them by id.
  test("deprecated services/source fields still load, with warnings", async () => {
    const files = {
      "a.hcl": `service {\n  name = "web"\n  id = "web-1"\n}\ntask {\n  name = "t"\n  source = "./m"\n` +
        `  services = ["web-1", "api"]\n}\n`,
    };
    const loaded = await load(dir(files), [{ kind: "file", path: "a.hcl" }]);
    // The loader writes only the label; the body is the services condition's owner's (kernel time).
    expect(loaded.config.tasks[0]).toMatchObject({ module: "./m" });
    expect(loaded.config.tasks[0]!.condition).toEqual({ type: "services" });
    expect(loaded.warnings.map((warning) => warning.path)).toEqual(["task[0].source", "task[0].services", "service"]);
    const owned = await ownedConfigOf(files);
    expect(owned.issues).toEqual([]);
    expect(owned.config.tasks[0]).toMatchObject({ condition: { type: "services", names: ["web", "api"] } });
  });

  test("service blocks carry their datacenter, filter and per-service cts_user_defined_meta into the task", async () => {
    const cwd = dir({
      "a.hcl": `service {\n  name = "web"\n  id = "web-1"\n  datacenter = "dc2"\n  filter = "Service.Tags contains \\"a\\""\n` +
        `  cts_user_defined_meta {\n    vip = "v"\n  }\n}\nservice {\n  name = "api"\n  datacenter = "dc2"\n` +
        `  filter = "Service.Tags contains \\"a\\""\n}\n` +
        `task {\n  name = "t"\n  module = "./m"\n  services = ["web-1", "api"]\n}\n` +
        `task {\n  name = "u"\n  module = "./m"\n  services = ["web-1", "db"]\n}\n`,
    });
    const owned = await ownedConfigOf({ "a.hcl": readFileSync(join(cwd, "a.hcl"), "utf8") });
    expect(owned.issues).toEqual([]);
    expect(owned.config.tasks[0]!.condition).toMatchObject({
      type: "services", names: ["web", "api"], datacenter: "dc2", filter: `Service.Tags contains "a"`,
      cts_user_defined_meta_by_service: { web: { vip: "v" } },
    });
    // "db" has no block: one selector cannot query it elsewhere, so the user is told.
    expect(owned.warnings.filter((warning) => warning.path === "task[1].services"))
      .toContainEqual({
        file: "a.hcl", path: "task[1].services",
        message: `the service blocks it names set different datacenter values; using "dc2" for all`,
      });
  });
});

describe("beyond CTS and HCL details", () => {
  test("high_availability, log_json, events_per_task and max_concurrent_runs", async () => {
    const cwd = dir({
      "a.hcl": `log_json = true\nevents_per_task = 9\nmax_concurrent_runs = 2\nhigh_availability {\n` +
        `  cluster {\n    name = "c1"\n    storage "consul" {\n      session_ttl = "30s"\n    }\n  }\n` +
        `  instance {\n    address = "http://10.0.0.1:8558"\n  }\n}\n`,
    });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }]);
    expect(config).toMatchObject({ log_json: true, events_per_task: 9, max_concurrent_runs: 2 });
    expect(config.high_availability).toEqual({
      cluster: { name: "c1", mode: "leader", storage: { parent_path: "consul-terraform-sync/", namespace: "", session_ttl: 30_000 } },
      instance: { address: "http://10.0.0.1:8558" },
    });
  });

  test("HCL 1 block maps with quoted keys load as maps (CTS docs write task_env this way)", async () => {
    const cwd = dir({
      "a.hcl": `terraform_provider "x" {\n  task_env {\n    # the token\n    "MY_KEY" = "v"\n    "B" = "w"\n  }\n}\n` +
        `task {\n  name = "t"\n  module = "m"\n  condition "services" {\n    names = ["web"]\n` +
        `    cts_user_defined_meta { "team-a" = "x" }\n  }\n}\n`,
    });
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }]);
    expect(config.terraform_providers[0]!.task_env).toEqual({ MY_KEY: "v", B: "w" });
    expect(config.tasks[0]!.condition).toMatchObject({ cts_user_defined_meta: { "team-a": "x" } });
  });

  test("a quoted argument name that is not a map body still fails with a hint", async () => {
    const cwd = dir({ "a.hcl": `terraform_provider "x" {\n  region = "r"\n  "KEY" = "v"\n}\n` });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }]));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toMatch(/^invalid HCL: line 3,.*task_env = \{ "KEY" = "value" \}\)$/);
  });

  test("{{ with secret }} needs Vault; {{ env }} in provider blocks is resolved at load", async () => {
    const cwd = dir({
      "a.hcl": `terraform_provider "x" {\n  token = "{{ with secret \\"kv/x\\" }}{{ .Data.data.t }}{{ end }}"\n` +
        `  region = "{{ env \\"REGION\\" }}"\n}\n`,
    });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }]));
    expect(issues).toEqual([{
      file: "a.hcl", path: "terraform_provider[0].x.token",
      message: "uses {{ with secret }} but Vault is not configured (set vault { address = ... } or VAULT_ADDR)",
    }]);
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }], {
      VAULT_ADDR: "http://127.0.0.1:8200", REGION: "eu-west-1",
    });
    expect(config.terraform_providers[0]!.arguments.region).toBe("eu-west-1");
  });

  test("beyond CTS (CTS#825): the consul block's token and auth read Vault, nothing else in it does", async () => {
    const secret = (path: string) => `{{ with secret \\"${path}\\" }}{{ .Data.data.v }}{{ end }}`;
    const cwd = dir({
      "a.hcl": `consul {\n  address = "127.0.0.1:8500"\n  token = "${secret("secret/consul")}"\n` +
        `  auth {\n    username = "${secret("secret/user")}"\n    password = "${secret("secret/pass")}"\n  }\n}\n`,
    });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }]));
    expect(issues.map((issue) => [issue.path.replace("[0]", ""), issue.message])).toEqual(["consul.auth.password", "consul.auth.username", "consul.token"]
      .map((path) => [path, "uses {{ with secret }} but Vault is not configured (set vault { address = ... } or VAULT_ADDR)"]));
    const { config } = await load(cwd, [{ kind: "file", path: "a.hcl" }], { VAULT_ADDR: "http://127.0.0.1:8200" });
    expect(config.consul.token).toBe('{{ with secret "secret/consul" }}{{ .Data.data.v }}{{ end }}');
    expect(config.consul.auth.enabled).toBe(true);

    const elsewhere = dir({
      "a.hcl": `consul {\n  address = "${secret("secret/address")}"\n  token = "{{ env \\"TOKEN\\" }}"\n}\n`,
    });
    const refused = await issuesOf(load(elsewhere, [{ kind: "file", path: "a.hcl" }], { VAULT_ADDR: "http://127.0.0.1:8200" }));
    expect(refused.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "consul.address: template syntax ({{ env }}, {{ key }}, {{ with secret }}) is only allowed in terraform_provider blocks " +
        "(and {{ with secret }} in consul.token, consul.auth.username, consul.auth.password)",
      'consul.token: may hold {{ with secret "path" }}...{{ end }}, no other template',
    ]);
  });

  test("the Vault token falls back to VAULT_TOKEN, then to ~/.vault-token, as in CTS", async () => {
    const home = dir({ ".vault-token": "hvs.from-home-file\n" });
    const cwd = dir({ "a.hcl": `vault {\n  address = "http://127.0.0.1:8200"\n}\n` });
    const fromFile = (await load(cwd, [{ kind: "file", path: "a.hcl" }], { HOME: home })).config.vault!;
    expect(fromFile).toMatchObject({ token: "hvs.from-home-file", renew_token: true });
    const fromEnv = (await load(cwd, [{ kind: "file", path: "a.hcl" }], { HOME: home, VAULT_TOKEN: "hvs.env" })).config.vault!;
    expect(fromEnv.token).toBe("hvs.env");
    const withAgentFile = dir({ "a.hcl": `vault {\n  address = "http://127.0.0.1:8200"\n  vault_agent_token_file = "/run/agent-token"\n}\n` });
    expect((await load(withAgentFile, [{ kind: "file", path: "a.hcl" }], { HOME: home })).config.vault!.token).toBe("");
  });

  test("{{ with secret }} in task_env and nested values needs Vault too, each named by its path", async () => {
    const secret = `{{ with secret \\"kv/x\\" }}{{ .Data.t }}{{ end }}`;
    const cwd = dir({
      "a.hcl": `terraform_provider "x" {\n  task_env {\n    "TOKEN" = "${secret}"\n  }\n  auth {\n    key = "${secret}"\n  }\n}\n`,
    });
    const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }]));
    expect(issues.map((issue) => issue.path).sort()).toEqual(["terraform_provider[0].x.auth[0].key", "terraform_provider[0].x.task_env.TOKEN"]);
    await expect(load(cwd, [{ kind: "file", path: "a.hcl" }], { VAULT_ADDR: "http://127.0.0.1:8200" })).resolves.toBeDefined();
  });
});

test("two files naming two different drivers is an error naming the second file", async () => {
  const cwd = dir({ "a.hcl": `driver "terraform" {}\n`, "b.json": JSON.stringify({ driver: { echo: {} } }) });
  const issues = await issuesOf(load(cwd, [{ kind: "file", path: "a.hcl" }, { kind: "file", path: "b.json" }]));
  expect(issues).toEqual([{
    file: "b.json", path: "driver.echo", message: `only one "driver" block can be configured, found "terraform" and "echo"`,
  }]);
});
