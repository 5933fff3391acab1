/**
 * Issue 26, item 2: `syslog { enabled, facility, name }` sends the log to the local syslog as CTS
 * does (every line at <facility>.notice, tagged <name>[<pid>]), tested against a real receiver: Debian's
 * rsyslogd (scripts/setup-rsyslog.sh, run by `npm test`) on a private socket (CTS_SYSLOG_SOCKET),
 * writing what it receives to a file. A receiver that is absent never stops the daemon: it says so
 * once, and the log reaches syslog again once the receiver is there.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../harness/free-port.ts";
import { runCli, spawnCli } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";

const RSYSLOGD = "/usr/sbin/rsyslogd";
const dir = mkdtempSync(join(tmpdir(), "cts-syslog-"));
const receivers: ChildProcess[] = [];
const daemons: ChildProcess[] = [];

afterAll(() => {
  for (const child of [...daemons, ...receivers]) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A private rsyslogd: its own socket, and each message it receives written as `facility.severity tag[pid]: text`. */
async function startReceiver(name: string): Promise<{ socket: string; messages: () => string[] }> {
  if (!existsSync(RSYSLOGD)) throw new Error(`${RSYSLOGD} is missing: run "sh scripts/setup-rsyslog.sh" (npm test does)`);
  const home = join(dir, name);
  mkdirSync(home, { recursive: true });
  const socket = join(home, "log");
  const file = join(home, "messages");
  writeFileSync(join(home, "rsyslog.conf"), `global(workDirectory="${home}")
module(load="imuxsock" SysSock.Use="off")
input(type="imuxsock" Socket="${socket}" CreatePath="on")
template(name="line" type="string" string="%syslogfacility-text%.%syslogseverity-text% %programname%[%procid%]:%msg%\\n")
*.* action(type="omfile" file="${file}" template="line")
`);
  receivers.push(spawn(RSYSLOGD, ["-n", "-f", join(home, "rsyslog.conf"), "-i", join(home, "rsyslogd.pid")], { stdio: "ignore" }));
  await until(`rsyslogd's socket ${socket}`, () => (existsSync(socket) ? true : undefined), 20_000);
  return { socket, messages: () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []) };
}

function configFile(name: string, body: string): string {
  const file = join(dir, `${name}.hcl`);
  writeFileSync(file, body);
  return file;
}

/** The log lines a run printed on stderr. */
const logLines = (stderr: string) => stderr.split("\n").filter((line) => /^\S+ \[(TRACE|DEBUG|INFO|WARN|ERROR)\]/.test(line));

describe.concurrent("syslog", () => {
  it("receives every log line at <facility>.notice, tagged <name>[<pid>]", async () => {
    const receiver = await startReceiver("all-lines");
    const file = configFile("all-lines", `syslog {\n  facility = "LOCAL3"\n  name     = "cts-e2e"\n}\nconsul {\n  address = "127.0.0.1:1"\n}\n`);
    const child = spawnCli("node", ["start", "-once", `-config-file=${file}`], { env: { CTS_SYSLOG_SOCKET: receiver.socket } });
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code, stderr).toBe(0);
    const lines = logLines(stderr);
    expect(lines.length).toBeGreaterThan(3);
    const expected = lines.map((line) => `local3.notice cts-e2e[${child.pid}]: ${line}`);
    await until("every line in syslog", () => (expected.every((line) => receiver.messages().includes(line)) ? true : undefined), 10_000)
      .catch(() => expect(receiver.messages()).toEqual(expected));
  });

  it("an absent receiver is said once and never stops the daemon; the log reaches syslog once it is there", async () => {
    const socket = join(dir, "late", "log");
    const port = await freePort();
    const file = configFile("late", `port = ${port}\nsyslog {\n  enabled = true\n}\nconsul {\n  address = "127.0.0.1:1"\n}\n`);
    const child = spawnCli("node", ["start", `-config-file=${file}`], { env: { CTS_SYSLOG_SOCKET: socket } });
    daemons.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    await until("the warning about the absent receiver", () => (stderr.includes("[WARN]  syslog: Cannot send the log to syslog: socket") ? true : undefined), 30_000);
    const health = async () => (await fetch(`http://127.0.0.1:${port}/v1/health`).catch(() => undefined))?.status;
    await until("the API while syslog is absent", async () => ((await health()) === 200 ? true : undefined), 30_000);

    const receiver = await startReceiver("late");
    await until("the log back in syslog", () => (stderr.includes("[INFO]  syslog: the log goes to syslog again") ? true : undefined), 30_000);
    child.kill("SIGTERM");
    expect(await new Promise((resolve) => child.once("exit", resolve)), stderr).toBe(0);
    expect(stderr.split("Cannot send the log to syslog").length - 1).toBe(1);
    const stopping = logLines(stderr).filter((line) => / cli: graceful shutdown$/.test(line));
    expect(stopping).toHaveLength(1);
    await until("the shutdown line in syslog", () => (receiver.messages().some((m) => m.endsWith(stopping[0]!)) ? true : undefined), 10_000);
    expect(receiver.messages().every((m) => m.startsWith(`local0.notice consul-terraform-sync[${child.pid}]: `))).toBe(true);
  });

  it("an unknown facility is a config error naming the field", async () => {
    const file = configFile("bad-facility", `syslog {\n  facility = "LOCAL9"\n}\n`);
    const result = await runCli("node", ["validate", `-config-file=${file}`]);
    expect(result.code, result.stderr).toBe(15);
    expect(result.stderr).toContain(`${file}: syslog.facility: must be a syslog facility (KERN, USER, MAIL,`);
    expect(result.stderr).toContain(`got "LOCAL9"`);
  });
});
