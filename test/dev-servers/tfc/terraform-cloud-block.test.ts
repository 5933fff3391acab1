/**
 * The embedded HCP Terraform server against the real Terraform CLI: a `cloud {}` block whose host
 * is mapped to the server by a CLI-config `host` block (plain HTTP on 127.0.0.1), so `init`, `plan`
 * and `apply` run remotely — the server unpacks the uploaded configuration and runs the local
 * terraform — and the state lands in the workspace as a state version.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { $ } from "zx";
import { startTfcDevServer, type TfcDevServer } from "../../../dev-servers/tfc/mod.ts";

$.verbose = false;

const HOST = "tfc.cts.test";

describe("tfc-dev behind a terraform cloud block", () => {
  let server: TfcDevServer;
  let work: string;
  let cliConfig: string;

  async function api(method: string, urlPath: string, body?: unknown) {
    const response = await fetch(`${server.url}/api/v2${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/vnd.api+json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  async function terraform(dir: string, args: string[], env: Record<string, string> = {}) {
    return $({
      cwd: dir,
      nothrow: true,
      env: { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: "1", ...env },
    })`terraform ${args}`;
  }

  async function moduleDir(name: string, workspaces: string, input: string) {
    const dir = path.join(work, name);
    await $`mkdir -p ${dir}`;
    await writeFile(path.join(dir, "main.tf"), `
terraform {
  cloud {
    hostname     = "${HOST}"
    organization = "${server.organization}"
    workspaces { ${workspaces} }
  }
}
resource "terraform_data" "greeting" { input = "${input}" }
output "greeting" { value = terraform_data.greeting.output }
`);
    return dir;
  }

  beforeAll(async () => {
    server = await startTfcDevServer();
    work = await mkdtemp(path.join(tmpdir(), "tfc-cloud-block-"));
    cliConfig = path.join(work, "cli.tfrc");
    await writeFile(cliConfig, `
host "${HOST}" {
  services = { "tfe.v2" = "${server.url}/api/v2/" }
}
credentials "${HOST}" { token = "${server.token}" }
`);
  });
  afterAll(async () => {
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("init creates the named workspace; apply runs remotely and stores the state; a second apply changes nothing", async () => {
    const dir = await moduleDir("named", `name = "app"`, "hello");
    const init = await terraform(dir, ["init", "-input=false", "-no-color"]);
    expect(init.exitCode, init.stderr).toBe(0);
    expect((await api("GET", `/organizations/${server.organization}/workspaces/app`)).status).toBe(200);

    const plan = await terraform(dir, ["plan", "-input=false", "-no-color"]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("1 to add, 0 to change, 0 to destroy");

    const apply = await terraform(dir, ["apply", "-auto-approve", "-input=false", "-no-color"]);
    expect(apply.exitCode, apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    expect(apply.stdout).toContain(`greeting = "hello"`);

    const workspace = (await api("GET", `/organizations/${server.organization}/workspaces/app`)).body.data;
    const current = await api("GET", `/workspaces/${workspace.id}/current-state-version`);
    expect(current.status).toBe(200);
    const stateUrl: string = current.body.data.attributes["hosted-state-download-url"];
    const state = await (await fetch(stateUrl, { headers: { authorization: `Bearer ${server.token}` } })).json();
    expect(state.outputs.greeting.value).toBe("hello");

    const again = await terraform(dir, ["apply", "-auto-approve", "-input=false", "-no-color"]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain("No changes.");
    const runs = (await api("GET", `/workspaces/${workspace.id}/runs`)).body.data;
    expect(runs.map((run: { attributes: { status: string } }) => run.attributes.status)).toContain("planned_and_finished");
  }, 240_000);

  it("selects among the workspaces that carry the block's tags", async () => {
    for (const name of ["tagged-a", "tagged-b", "untagged"]) {
      const created = await api("POST", `/organizations/${server.organization}/workspaces`, { data: { type: "workspaces", attributes: { name } } });
      expect(created.status).toBe(201);
      if (name !== "untagged") {
        const tagged = await api("POST", `/workspaces/${created.body.data.id}/relationships/tags`, { data: [{ type: "tags", attributes: { name: "team-net" } }] });
        expect(tagged.status).toBe(204);
      }
    }
    const dir = await moduleDir("tagged", `tags = ["team-net"]`, "tagged");
    const init = await terraform(dir, ["init", "-input=false", "-no-color"], { TF_WORKSPACE: "tagged-b" });
    expect(init.exitCode, init.stderr).toBe(0);
    const list = await terraform(dir, ["workspace", "list"], { TF_WORKSPACE: "tagged-b" });
    expect(list.exitCode, list.stderr).toBe(0);
    // Workspace lines are indented by two, the current one starred; notes are not indented.
    const names = list.stdout.split("\n").flatMap((line) => /^[* ] (\S+)$/.exec(line)?.[1] ?? []);
    expect(names.sort()).toEqual(["tagged-a", "tagged-b"]);

    const apply = await terraform(dir, ["apply", "-auto-approve", "-input=false", "-no-color"], { TF_WORKSPACE: "tagged-b" });
    expect(apply.exitCode, apply.stderr).toBe(0);
    const workspace = (await api("GET", `/organizations/${server.organization}/workspaces/tagged-b`)).body.data;
    expect((await api("GET", `/workspaces/${workspace.id}/current-state-version`)).status).toBe(200);
  }, 240_000);
});
