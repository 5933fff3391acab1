/**
 * Task hooks end to end (issue 30 item 3, beyond CTS: CTS#309, CTS#293): the real daemon, the
 * embedded Consul and real Terraform. A task's `pre_apply` and `post_apply` commands run around each
 * apply with the run's environment and a JSON file describing the run; their output lands masked in
 * the run record. A pre hook that exits 1 cancels the run (nothing applied, outcome `cancelled`, no
 * post hook); the next change applies everything. A post hook that fails marks the run. A pre hook
 * that ignores SIGTERM is killed at its time limit and cancels its run.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../core/plugin-api/mod.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../../harness/consul-dev-server.ts";
import { type DaemonProcess, startDaemon, waitForDaemon } from "../helpers/daemon-process.ts";
import { freePort } from "../../harness/free-port.ts";
import { until } from "../../harness/until.ts";
import { demoModule, registerService, readServiceLines } from "../../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../../harness/driver-terraform/terraform-env.ts";

const tmp = tempDir("task-hooks");
const dir = tmp.path;
/** Known to the daemon's masker from the start (the consul block's token); the dev Consul has no ACLs. */
const SECRET = "hook-secret-7f3a9c2e51";
let consul: TestConsulDevServer;
let daemon: DaemonProcess;
let api = "";

/** Records its environment and the run file, prints the secret, exits with the code in `<stage>-exit`. */
const HOOK_SCRIPT = `#!/bin/sh
n=$(ls "${dir}/seen" | wc -l)
out="${dir}/seen/$n-$CTS_HOOK"
env | grep '^CTS_' | sort > "$out.env"
cp "$CTS_RUN_FILE" "$out.json"
echo "checking with $HOOK_TOKEN"
echo "to stderr" >&2
exit $(cat "${dir}/$CTS_HOOK-exit" 2>/dev/null || echo 0)
`;

function config(port: number): string {
  return `log_level   = "DEBUG"
port        = ${port}
working_dir = ${JSON.stringify(join(dir, "sync-tasks"))}
consul {
  address = "${consul.address}"
  token   = "${SECRET}"
  service_registration {
    enabled = false
  }
}
buffer_period {
  enabled = false
}
plugin "task-hooks" {
  options = {
    allow_from_api = true
  }
}
task {
  name           = "guarded"
  module         = ${JSON.stringify(demoModule)}
  variable_files = [${JSON.stringify(join(dir, "guarded.tfvars"))}]
  condition "services" {
    names = ["web"]
  }
  hooks {
    pre_apply {
      command = ["./hook.sh"]
      timeout = "20s"
    }
    post_apply {
      command = ["./hook.sh", "after"]
    }
  }
}
task {
  name   = "stubborn"
  module = ${JSON.stringify(demoModule)}
  condition "services" {
    names = ["db"]
  }
  hooks {
    pre_apply {
      command = ["/bin/sh", "-c", "trap '' TERM; echo waiting; sleep 60"]
      timeout = "1s"
    }
  }
}
`;
}

async function runs(task: string): Promise<RunRecord[]> {
  const answer = await fetch(`${api}/v1/tasks/${task}/runs?limit=50`);
  return answer.ok ? ((await answer.json()) as { runs: RunRecord[] }).runs : [];
}

/** The task's newest record once it has `count` ended ones. */
async function endedRun(task: string, count: number): Promise<RunRecord> {
  try {
    return await until(`${task}'s ended run #${count}`, async () => {
      const ended = (await runs(task)).filter((run) => run.outcome !== "running" && run.outcome !== "skipped");
      return ended.length >= count ? ended[0] : undefined;
    }, 120_000, 100);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${daemon.output().slice(-6000)}`);
  }
}

const seenFiles = () => readdirSync(join(dir, "seen")).sort((a, b) => parseInt(a) - parseInt(b));
const seen = (name: string) => readFileSync(join(dir, "seen", name), "utf8");

beforeAll(async () => {
  consul = await startConsulDevServer();
  await registerService(consul.url, "web-1", "web", "10.0.0.1");
  await registerService(consul.url, "db-1", "db", "10.0.1.1");
  writeFileSync(join(dir, "hook.sh"), HOOK_SCRIPT);
  chmodSync(join(dir, "hook.sh"), 0o755);
  writeFileSync(join(dir, "guarded.tfvars"), `output_file = ${JSON.stringify(join(dir, "guarded.txt"))}\n`);
  mkdirSync(join(dir, "seen"));
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, "cts.hcl"), config(port));
  daemon = startDaemon("node", join(dir, "cts.hcl"), { cwd: dir, env: { ...terraformTestEnv(), HOOK_TOKEN: SECRET } });
  await waitForDaemon(daemon, async () => (await fetch(`${api}/v1/status`)).ok, 60_000);
}, 90_000);

afterAll(async () => {
  await daemon?.stop();
  await consul?.stop();
  tmp.remove();
});

describe("hooks around a task's apply", () => {
  it("runs pre_apply and post_apply with the run's environment and file, output masked in the record", async () => {
    const run = await endedRun("guarded", 1);
    expect(run.outcome).toBe("applied");
    expect(run.hooks?.map((hook) => [hook.name, hook.outcome, hook.exit_code])).toEqual([["pre_apply", "ok", 0], ["post_apply", "ok", 0]]);
    expect(run.hooks_failed).toBeUndefined();
    const output = run.hooks![0]!.output!;
    expect(output).toContain("checking with <redacted>");
    expect(output).toContain("to stderr");
    expect(JSON.stringify(run)).not.toContain(SECRET);
    const files = seenFiles();
    expect(files).toEqual(["0-pre_apply.env", "0-pre_apply.json", "2-post_apply.env", "2-post_apply.json"]);
    expect(seen("0-pre_apply.env")).toContain(`CTS_RUN_ID=${run.id}\n`);
    expect(seen("0-pre_apply.env")).toContain("CTS_RUN_STATUS=pending\nCTS_TASK_NAME=guarded\n");
    expect(seen("2-post_apply.env")).toContain("CTS_HOOK=post_apply\n");
    expect(seen("2-post_apply.env")).toContain("CTS_RUN_STATUS=succeeded\n");
    const before = JSON.parse(seen("0-pre_apply.json"));
    expect(before).toMatchObject({ hook: "pre_apply", task: { name: "guarded" }, run: { id: run.id, task: "guarded", outcome: "running" } });
    const after = JSON.parse(seen("2-post_apply.json"));
    expect(after).toMatchObject({ hook: "post_apply", run: { id: run.id, outcome: "applied" } });
    // The file is the hook's while it runs, then gone.
    const workingDir = join(dir, "sync-tasks", "guarded");
    expect(readdirSync(workingDir).filter((name) => name.startsWith(".cts-hook-"))).toEqual([]);
  }, 150_000);

  it("a pre_apply that exits 1 cancels the run: nothing applied, no post_apply, the next change applies", async () => {
    await endedRun("guarded", 1);
    writeFileSync(join(dir, "pre_apply-exit"), "1");
    await registerService(consul.url, "web-2", "web", "10.0.0.2");
    const cancelled = await endedRun("guarded", 2);
    expect(cancelled.outcome).toBe("cancelled");
    expect(cancelled.error).toBe("Cannot apply: the pre_apply hook exited with status 1");
    expect(cancelled.event_id).toBeUndefined();
    expect(cancelled.hooks?.map((hook) => [hook.name, hook.outcome, hook.exit_code])).toEqual([["pre_apply", "failed", 1]]);
    expect(readServiceLines(dir, "guarded")).toEqual(["web 10.0.0.1:80"]);

    writeFileSync(join(dir, "pre_apply-exit"), "0");
    writeFileSync(join(dir, "post_apply-exit"), "3");
    await registerService(consul.url, "web-3", "web", "10.0.0.3");
    const marked = await endedRun("guarded", 3);
    expect(marked.outcome).toBe("applied");
    expect(marked.hooks_failed).toBe(true);
    expect(marked.hooks?.map((hook) => [hook.name, hook.outcome, hook.exit_code])).toEqual([["pre_apply", "ok", 0], ["post_apply", "failed", 3]]);
    expect(readServiceLines(dir, "guarded")).toEqual(["web 10.0.0.1:80", "web 10.0.0.2:80", "web 10.0.0.3:80"]);
    expect(daemon.output()).toMatch(/\[WARN\] +hooks: hook failed: .*hook=post_apply/);
    expect(daemon.output()).not.toContain(SECRET);
  }, 150_000);

  it("a pre_apply that ignores SIGTERM is killed at its time limit and cancels the run", async () => {
    const run = await endedRun("stubborn", 1);
    expect(run.outcome).toBe("cancelled");
    expect(run.hooks?.[0]).toMatchObject({ name: "pre_apply", outcome: "timed_out", output: "waiting\n", error: "stopped after its time limit of 1s" });
    expect(existsSync(join(dir, "sync-tasks", "stubborn", "terraform.tfstate"))).toBe(false);
  }, 150_000);

  it("with allow_from_api, a task created through the API takes a hooks block, shows it, and refuses a wrong one naming the field", async () => {
    const post = (task: unknown) => fetch(`${api}/v1/tasks?run=now`, { method: "POST", body: JSON.stringify({ task }) });
    const task = {
      name: "from-api", module: demoModule, condition: { services: { names: ["db"] } },
      hooks: { post_apply: [{ command: ["/bin/sh", "-c", "echo status=$CTS_RUN_STATUS"] }] },
    };
    const wrong = await post({ ...task, name: "wrong", hooks: { post_apply: [{ command: [] }] } });
    expect(wrong.status).toBe(400);
    // Checked by the API's request schema, as every task field (CTS's wording for a body that does not match).
    expect((await wrong.json()).error.message).toBe(
      `request body has an error: doesn't match schema #/components/schemas/TaskRequest: Error at "/task/hooks/post_apply/0/command": minimum number of items is 1`,
    );
    const created = await post(task);
    expect(created.status).toBe(201);
    expect((await created.json()).task.hooks).toEqual({ post_apply: [{ command: ["/bin/sh", "-c", "echo status=$CTS_RUN_STATUS"], timeout: "60s" }] });
    const run = await endedRun("from-api", 1);
    expect(run.hooks).toEqual([expect.objectContaining({ name: "post_apply", outcome: "ok", output: "status=succeeded\n" })]);
  }, 150_000);
});
