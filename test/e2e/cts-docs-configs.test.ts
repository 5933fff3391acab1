/**
 * Configs written the way CTS's docs write them, run by the real CLI (`start -once`) against the
 * embedded Consul and the real terraform: what a user migrating from CTS hits first.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { runCli, spawnCli } from "../../harness/run-cli.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

let consul: TestConsulDevServer;
const tmp = tempDir("cts-docs");

/** A module that records the `MY_*` environment Terraform ran with into the task's working dir. */
const envModule = `
variable "services" {
  type = any
}
resource "terraform_data" "env" {
  provisioner "local-exec" {
    command = "env | grep '^MY_' | sort > \${path.root}/env.txt"
  }
}
`;

beforeAll(async () => {
  consul = await startConsulDevServer();
  await fetch(`${consul.url}/v1/agent/service/register`, {
    method: "PUT", body: JSON.stringify({ Name: "web", ID: "web-1", Address: "10.0.0.1", Port: 80 }),
  });
  mkdirSync(join(tmp.path, "modules", "env"), { recursive: true });
  writeFileSync(join(tmp.path, "modules", "env", "main.tf"), envModule);
});
afterAll(async () => {
  await consul.stop();
  tmp.remove();
});

function writeConfig(dir: string, providerBlock: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "cts.hcl");
  writeFileSync(file, `
consul {
  address = "${consul.address}"
}
driver "terraform" {
  backend "local" {}
}
${providerBlock}
task {
  name      = "env-task"
  module    = "../modules/env"
  providers = ["terraform"]
  condition "services" {
    names = ["web"]
  }
}
`);
  return file;
}

describe("terraform_provider dynamic values", () => {
  test("task_env, written as a block as CTS's docs do, resolves {{ env }} and {{ key }} at start-up", async () => {
    await fetch(`${consul.url}/v1/kv/cts/provider-token`, { method: "PUT", body: "from-consul-kv" });
    const dir = join(tmp.path, "templates");
    const config = writeConfig(dir, `
terraform_provider "terraform" {
  task_env {
    "MY_FROM_ENV" = "{{ env \\"CTS_DOCS_TOKEN\\" }}"
    "MY_FROM_KV"  = "{{ key \\"cts/provider-token\\" }}"
    "MY_UNSET"    = "x{{ env \\"CTS_DOCS_NOT_SET\\" }}y"
  }
}`);
    const once = await runCli("node", ["start", `-config-file=${config}`, "-once"], {
      cwd: dir, env: terraformTestEnv({ CTS_DOCS_TOKEN: "from-env" }), timeoutMs: 90_000,
    });
    expect(once.code, once.stdout + once.stderr).toBe(0);
    expect(readFileSync(join(dir, "sync-tasks", "env-task", "env.txt"), "utf8").trim().split("\n")).toEqual([
      "MY_FROM_ENV=from-env", "MY_FROM_KV=from-consul-kv", "MY_UNSET=xy",
    ]);
  }, 120_000);

  test("a {{ key }} that is not in Consul fails the run naming the key", async () => {
    const dir = join(tmp.path, "missing-key");
    const config = writeConfig(dir, `
terraform_provider "terraform" {
  task_env = {
    "MY_FROM_KV" = "{{ key \\"cts/not-written\\" }}"
  }
}`);
    const once = await runCli("node", ["start", `-config-file=${config}`, "-once"], {
      cwd: dir, env: terraformTestEnv(), timeoutMs: 90_000,
    });
    expect(once.code).toBe(11);
    expect(once.stdout + once.stderr).toMatch(/Consul KV key \\?"cts\/not-written\\?" does not exist/);
  }, 120_000);
});

describe("signals", () => {
  /** Records terraform's pid (the shell's parent) and its own, then outlives the 10 s grace period. */
  const stuckModule = `
variable "services" {
  type = any
}
resource "terraform_data" "stuck" {
  provisioner "local-exec" {
    command = "echo $PPID > \${path.root}/terraform.pid; echo $$ > \${path.root}/sleep.pid; exec sleep 300"
  }
}
`;

  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  test("SIGTERM during an apply that outlives the grace period exits 12 and leaves no terraform behind", async () => {
    const dir = join(tmp.path, "stuck");
    mkdirSync(join(dir, "modules", "stuck"), { recursive: true });
    writeFileSync(join(dir, "modules", "stuck", "main.tf"), stuckModule);
    writeFileSync(join(dir, "cts.hcl"), `
consul {
  address = "${consul.address}"
}
driver "terraform" {
  backend "local" {}
}
task {
  name   = "stuck"
  module = "./modules/stuck"
  condition "services" {
    names = ["web"]
  }
}
`);
    const work = join(dir, "sync-tasks", "stuck");
    const child = spawnCli("node", ["start", "-config-file=cts.hcl", "-once"], { cwd: dir, env: terraformTestEnv() });
    let output = "";
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const pidIn = async (file: string): Promise<number> => {
      for (;;) {
        const text = existsSync(join(work, file)) ? readFileSync(join(work, file), "utf8").trim() : "";
        if (text !== "") return Number(text);
        if (child.exitCode !== null) throw new Error(`cts-runtime exited before the apply began:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const terraformPid = await pidIn("terraform.pid");
    const sleepPid = await pidIn("sleep.pid");
    try {
      child.kill("SIGTERM");
      expect(await exited, output).toBe(12);
      // Killed with cts-runtime (CTS's parent-death signal); poll while init reaps it.
      for (let i = 0; i < 50 && alive(terraformPid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(alive(terraformPid), `terraform ${terraformPid} outlived cts-runtime`).toBe(false);
    } finally {
      if (alive(sleepPid)) process.kill(sleepPid, "SIGKILL");
    }
  }, 120_000);
});

describe("deprecated configs (CTS before 0.5)", () => {
  test("service blocks give the services a task names in `services` their cts_user_defined_meta", async () => {
    await fetch(`${consul.url}/v1/agent/service/register`, {
      method: "PUT", body: JSON.stringify({ Name: "api", ID: "api-1", Address: "10.0.1.1", Port: 8080 }),
    });
    const dir = join(tmp.path, "legacy");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "cts.hcl"), `
consul {
  address = "${consul.address}"
}
driver "terraform" {
  backend "local" {}
}
service {
  name       = "web"
  id         = "web-dc1"
  datacenter = "dc1"
  cts_user_defined_meta {
    vip = "192.0.2.10"
  }
}
task {
  name     = "legacy"
  source   = "../modules/env"
  services = ["web-dc1", "api"]
}
`);
    const once = await runCli("node", ["start", "-config-file=cts.hcl", "-once"], {
      cwd: dir, env: terraformTestEnv(), timeoutMs: 90_000,
    });
    expect(once.code, once.stdout + once.stderr).toBe(0);
    const tfvars = readFileSync(join(dir, "sync-tasks", "legacy", "terraform.tfvars"), "utf8");
    const metaOf = (key: string) => {
      const block = tfvars.slice(tfvars.indexOf(`"${key}"`));
      return /cts_user_defined_meta = (\{\}|\{[^}]*\})/.exec(block)?.[1]?.replace(/\s+/g, " ");
    };
    expect(metaOf("web-1.consul-dev.dc1")).toBe(`{ vip = "192.0.2.10" }`);
    expect(metaOf("api-1.consul-dev.dc1")).toBe("{}");

    // The status API reports the deprecated field as CTS does, before and after the first run.
    writeFileSync(join(dir, "cts.hcl"), `port = 0\n${readFileSync(join(dir, "cts.hcl"), "utf8")}`);
    const daemon = spawnCli("node", ["start", "-config-file=cts.hcl"], { cwd: dir, env: terraformTestEnv() });
    let output = "";
    daemon.stdout!.on("data", (chunk) => (output += chunk));
    daemon.stderr!.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => daemon.on("close", resolve));
    try {
      while (!/watching for changes/.test(output)) {
        if (daemon.exitCode !== null) throw new Error(output);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const port = /address=http:\/\/[^:]+:(\d+)/.exec(output)![1];
      const status = await (await fetch(`http://127.0.0.1:${port}/v1/status/tasks/legacy`)).json();
      expect(status.legacy.services).toEqual(["web-dc1", "api"]);
    } finally {
      daemon.kill("SIGTERM");
      expect(await exited, output).toBe(0);
    }
  }, 120_000);
});
