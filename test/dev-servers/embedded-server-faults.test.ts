/**
 * Issue 24 item 7: the embedded servers as their CLI runs them. `consul-dev -snapshot` on a full disk
 * (a small tmpfs filled up; where it cannot be mounted, a file where the snapshot's directory was)
 * acknowledged writes it never kept and said nothing (on main: 20 writes answered 200, 0 keys after a
 * restart); now a write it cannot keep is refused with 500 and the cause, logged once, and once the
 * disk has room every acknowledged write is kept. `tfc-dev`'s wildcard search pinned a core on
 * `*a*a*a*a*a*a*a*a*b` against a long name and ignored SIGTERM; now it answers, and stops.
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../harness/free-port.ts";
import { spawnCli } from "../../harness/run-cli.ts";
import { until } from "../../harness/until.ts";

const root = mkdtempSync(join(tmpdir(), "cts-dev-faults-"));

interface Served {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  exited: Promise<number | null>;
}

async function serve(args: string[], port: number, ready: string): Promise<Served> {
  const child = spawnCli("node", args);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await until(`${args[0]} to listen`, () => (output.includes(ready) ? true : undefined), 30_000);
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** A directory whose disk can be filled and emptied again. */
function diskFor(dir: string): { fill(): void; empty(): void; close(): void } {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", dir], { stdio: "ignore" });
  } catch {
    // No mount here: the snapshot's directory turns into a file, which fails the write as surely.
    const aside = `${dir}.aside`;
    return {
      fill: () => (renameSync(dir, aside), writeFileSync(dir, "")),
      empty: () => (rmSync(dir), renameSync(aside, dir)),
      close: () => {},
    };
  }
  const filler = join(dir, "filler");
  return {
    fill() {
      try {
        writeFileSync(filler, Buffer.alloc(1024 * 1024));
      } catch {
        // ENOSPC: the file holds what fitted, the disk is full.
      }
    },
    empty: () => rmSync(filler, { force: true }),
    close: () => execFileSync("umount", [dir], { stdio: "ignore" }),
  };
}

describe("consul-dev -snapshot when the disk is full", () => {
  const dir = join(root, "snapshot");
  const snapshot = join(dir, "consul.json");
  let disk: ReturnType<typeof diskFor>;
  let port: number;
  let server: Served | undefined;
  const start = async () => (server = await serve(["consul-dev", `-http-addr=127.0.0.1:${port}`, `-snapshot=${snapshot}`], port, "Consul-compatible dev server running"));
  const put = async (key: string) => (await fetch(`${server!.url}/v1/kv/${key}`, { method: "PUT", body: key })).status;

  beforeAll(async () => {
    disk = diskFor(dir);
    port = await freePort();
    await start();
  }, 60_000);

  afterAll(async () => {
    server?.child.kill("SIGKILL");
    disk?.close();
  });

  it("refuses writes it cannot keep with 500 and the cause, says so once, and keeps every write it acknowledged", async () => {
    expect(await put("before")).toBe(200);
    await until("the first snapshot", () => (existsSync(snapshot) ? true : undefined), 10_000);
    disk.fill();
    const acknowledged = ["before"];
    const refused = await until("a refused write", async () => {
      const key = `during-${acknowledged.length}`;
      const status = await put(key);
      if (status === 200) acknowledged.push(key);
      return status === 500 ? key : undefined;
    }, 20_000, 20);
    const answer = await fetch(`${server!.url}/v1/kv/${refused}`, { method: "PUT", body: "x" });
    expect(answer.status).toBe(500);
    expect(await answer.text()).toMatch(/^Cannot write: the snapshot .*consul\.json cannot be written: .*; this server accepts no writes until it can/);
    expect(server!.output().match(/\[ERROR\] consul-dev: cannot write snapshot/g)).toHaveLength(1);
    expect((await fetch(`${server!.url}/v1/kv/before`)).status).toBe(200);

    disk.empty();
    await until("writes accepted again", async () => ((await put("after")) === 200 ? true : undefined), 20_000, 100);
    acknowledged.push("after");
    expect(server!.output()).toMatch(/\[INFO\]  consul-dev: snapshot .* written again: accepting writes/);
    server!.child.kill("SIGTERM");
    expect(await server!.exited).toBe(0);
    await start();
    for (const key of acknowledged) expect((await fetch(`${server!.url}/v1/kv/${key}`)).status, key).toBe(200);
  }, 90_000);
});

describe("tfc-dev wildcard search", () => {
  let server: Served;
  beforeAll(async () => {
    const port = await freePort();
    server = await serve(["tfc-dev", `-http-addr=127.0.0.1:${port}`, "-token=t0ken", "-organization=acme"], port, "Token");
  }, 60_000);
  afterAll(() => void server.child.kill("SIGKILL"));

  it("matches a pathological pattern against a long name at once, and stops on SIGTERM", async () => {
    const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}/api/v2${path}`, {
      ...init, headers: { authorization: "Bearer t0ken", "content-type": "application/vnd.api+json" }, signal: AbortSignal.timeout(10_000),
    });
    const name = "a".repeat(90);
    const created = await api("/organizations/acme/workspaces", { method: "POST", body: JSON.stringify({ data: { type: "workspaces", attributes: { name } } }) });
    expect(created.status).toBe(201);
    const search = async (pattern: string) =>
      ((await (await api(`/organizations/acme/workspaces?search%5Bwildcard-name%5D=${encodeURIComponent(pattern)}`)).json()) as { data: { attributes: { name: string } }[] })
        .data.map((ws) => ws.attributes.name);
    expect(await search("*a*a*a*a*a*a*a*a*b")).toEqual([]);
    expect(await search("*A*a*a*a*a*a*a*a*a")).toEqual([name]);
    expect(await search(`a*${"a".repeat(88)}`)).toEqual([name]);
    expect(await search("aa*aaa*b*")).toEqual([]);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));
