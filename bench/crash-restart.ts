/**
 * @module Benchmark of crash safety (issue 11) with real processes: `node dist/main.js start` (or Deno with
 * --runtime=deno), the real terraform, the embedded Consul holding Terraform's state, one task whose
 * apply takes --apply-sleep seconds (2 by default) in a local-exec provisioner.
 *
 * Run:  npm run build && npx deno run -A bench/crash-restart.ts              (20 rounds)
 *       npx deno run -A bench/crash-restart.ts --rounds=5 --runtime=deno
 *
 * Each round: register one more service instance (the task applies), SIGKILL the daemon once that
 * apply is in its provisioner, then restart it at once. Measured: how long terraform, and any process
 * in the task's directory (the provisioner), lived after the daemon died (the process table, polled
 * every 10 ms), and the time from the restart until the task converged (the module wrote every
 * registered instance and the task status is successful). A daemon that exits on its own meanwhile
 * (as main's did on the held lock) is started again at once, as systemd would, and counted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import process from "node:process";
import { startConsulDevServer } from "../harness/consul-dev-server.ts";
import { freePort } from "../harness/free-port.ts";
import { repoRoot } from "../harness/run-cli.ts";
import {
  processesUnder, startedApplies, taskStatus, writeSlowConfig,
} from "../harness/driver-terraform/crash-support.ts";
import { readServiceLines, registerService } from "../harness/driver-terraform/e2e-support.ts";
import { tempDir, terraformTestEnv } from "../harness/driver-terraform/terraform-env.ts";

function arg(name: string, fallback: string): string {
  const found = process.argv.find((value) => value.startsWith(`--${name}=`));
  return found ? found.slice(name.length + 3) : fallback;
}

const rounds = Number(arg("rounds", "20"));
const runtime = arg("runtime", "node");
const applySleep = Number(arg("apply-sleep", "2"));
const task = "crash-bench";

async function until(what: string, check: () => boolean | Promise<boolean>, limitMs: number, everyMs = 10): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
  return { median, max: sorted.at(-1)!, min: sorted[0]! };
};

const consul = await startConsulDevServer();
const tmp = tempDir("crash-bench");
const env = terraformTestEnv();
const port = await freePort();
const service = "bench-web";
const config = writeSlowConfig({ dir: tmp.path, consulAddress: consul.address, task, services: [service], port, applySleep });
const taskDir = join(tmp.path, "sync-tasks");
let daemon: ChildProcess | undefined;
let logs = "";
let selfExits = 0;

function start(): ChildProcess {
  const args = ["start", `-config-file=${config}`];
  const child = runtime === "deno"
    ? spawn(join(repoRoot, "node_modules", ".bin", "deno"), ["run", "-A", "-q", join(repoRoot, "main.ts"), ...args], { cwd: tmp.path, env })
    : spawn("node", [join(repoRoot, "dist", "main.js"), ...args], { cwd: tmp.path, env });
  child.stdout!.on("data", (chunk) => (logs += chunk));
  child.stderr!.on("data", (chunk) => (logs += chunk));
  child.once("exit", () => {
    // Like systemd's Restart=always: a daemon that stopped by itself is started again.
    if (daemon === child && !killing) {
      selfExits++;
      daemon = start();
    }
  });
  return child;
}

let killing = false;
const expected: string[] = [];
const terraformLived: number[] = [];
const anyLived: number[] = [];
const converged: number[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    const before = startedApplies(tmp.path, task);
    await registerService(consul.url, `${service}-${round}`, service, `10.9.${Math.floor(round / 250)}.${round % 250}`);
    expected.push(`${service} 10.9.${Math.floor(round / 250)}.${round % 250}:80`);
    expected.sort();
    if (!daemon) daemon = start();
    await until(`round ${round}'s apply`, () => startedApplies(tmp.path, task) > before, 120_000);

    killing = true;
    const victim = daemon!;
    const exited = new Promise((resolve) => victim.once("exit", resolve));
    const killedAt = Date.now();
    victim.kill("SIGKILL");
    await exited;
    let terraformGone = 0;
    await until("the orphans to end", () => {
      const left = processesUnder(taskDir);
      // argv[0] is terraform (the supervisor shell only carries it among its arguments).
      if (!terraformGone && !left.some((p) => /^\S*terraform /.test(p.command))) terraformGone = Date.now();
      return left.length === 0;
    }, 120_000);
    anyLived.push(Date.now() - killedAt);
    terraformLived.push(terraformGone - killedAt);

    const restartedAt = Date.now();
    killing = false;
    daemon = start();
    await until(`round ${round} to converge`, async () =>
      JSON.stringify(readServiceLines(tmp.path, task)?.sort()) === JSON.stringify(expected) && (await taskStatus(port, task)) === "successful",
      300_000, 50);
    converged.push(Date.now() - restartedAt);
    console.error(`  round ${round}: terraform lived ${terraformLived.at(-1)} ms, any process ${anyLived.at(-1)} ms, converged in ${converged.at(-1)} ms`);
  }
} catch (error) {
  console.error(logs.slice(-5000));
  throw error;
} finally {
  killing = true;
  daemon?.kill("SIGKILL");
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await consul.stop();
  if (process.argv.includes("--logs")) console.error(logs);
  tmp.remove();
}

const rows = [
  ["terraform alive after the daemon died", stats(terraformLived)],
  ["any process in the task dir alive after", stats(anyLived)],
  ["restart to converged", stats(converged)],
] as const;
const header = ["measure", "rounds", "median ms", "min ms", "max ms"];
const table = rows.map(([name, s]) => [name, String(rounds), String(s.median), String(s.min), String(s.max)]);
const widths = header.map((title, i) => Math.max(title.length, ...table.map((cells) => cells[i]!.length)));
const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
console.log(`runtime=${runtime} apply_sleep=${applySleep}s daemon exits on its own (restarted): ${selfExits}`);
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const cells of table) console.log(line(cells));
