/**
 * @module Test helper: the embedded Consul-compatible server on 127.0.0.1:<random port>, with restart()
 * on the same port and the same snapshot (a temp file written at stop unless `snapshotPath` is given),
 * so restarts keep data and indexes like a real agent with a data dir.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { access, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type ConsulDevServer,
  type ConsulDevServerOptions,
  startConsulDevServer as startServer,
} from "../dev-servers/consul/mod.ts";
import type { ConsulState } from "../dev-servers/consul/src/state/consul-state.ts";

export type { ConsulDevServerOptions };

export interface TestConsulDevServer extends ConsulDevServer {
  /** The state of the currently running instance (changes after restart()). */
  readonly state: ConsulState;
  readonly snapshotPath: string;
  /** Stops (parked queries are answered 503/closed) and starts again on the same port and snapshot. */
  restart(): Promise<void>;
}

/** Node's fs for the snapshot file (tests may use node:*; plugins may not). */
export const nodeSnapshotFiles: NonNullable<ConsulDevServerOptions["fileSystem"]> = {
  readText: (path) => readFile(path, "utf8"),
  async writeText(path, content) {
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    await writeFile(temp, content);
    await rename(temp, path);
  },
  exists: (path) => access(path).then(() => true, () => false),
};

export async function startConsulDevServer(options: ConsulDevServerOptions = {}): Promise<TestConsulDevServer> {
  let tempDir: string | undefined;
  const snapshotPath = options.snapshotPath ??
    join(tempDir = mkdtempSync(join(tmpdir(), "consul-dev-")), "snapshot.json");
  const startOptions: ConsulDevServerOptions = {
    ...options,
    snapshotPath,
    fileSystem: options.fileSystem ?? nodeSnapshotFiles,
    // The implicit temp snapshot only carries state across restart(): written at stop, never while
    // busy (benches with 10 000 instances would otherwise re-serialize the catalog continuously).
    snapshotDebounceMs: options.snapshotDebounceMs ?? (options.snapshotPath ? 50 : Infinity),
  };
  let current: ConsulDevServer;
  try {
    current = await startServer(startOptions);
  } catch (error) {
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    throw error;
  }
  const port = current.port;
  let stopped = false;
  return {
    url: current.url,
    address: current.address,
    port,
    datacenter: current.datacenter,
    node: current.node,
    snapshotPath,
    get state() {
      return current.state;
    },
    get acl() {
      return current.acl;
    },
    async stop() {
      stopped = true;
      await current.stop();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
    async restart() {
      if (stopped) throw new Error("Cannot restart the Consul dev server: it was stopped");
      await current.stop();
      current = await startServer({ ...startOptions, port });
    },
  };
}
