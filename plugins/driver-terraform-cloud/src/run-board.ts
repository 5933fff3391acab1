/**
 * @module One look at many runs. While a few runs are followed, each is read on its own
 * (`GET /runs/:id`). When many are (a change that touches hundreds of tasks, a failover), they are
 * read together: one sweep lists the driver's workspaces with their current run
 * (`GET /organizations/:org/workspaces?search[tags]=source:cts&include=current_run`, 100 a page),
 * so a thousand runs cost ten requests a look instead of a thousand. Runs are read together only
 * while that is cheaper (more runs followed than the listing has pages); a run that is not its
 * workspace's current one (queued behind another) is read on its own.
 */
import type { Resource, TfcClient } from "./tfc-client.ts";

export interface BoardOptions {
  readonly organization: string;
  /** The workspaces' name prefix (narrows the listing when several daemons share an organization). */
  readonly prefix: string;
  /** The tag every workspace of the driver carries. */
  readonly tag: string;
  /** From how many followed runs on, they are read together. @default 4 */
  readonly batchFrom?: number;
  /** The least time between two sweeps. @default 1000 */
  readonly sweepEveryMs?: number;
}

interface Look {
  readonly runId: string;
  readonly workspace: string;
  readonly readOne: () => Promise<Resource>;
  readonly resolve: (run: Resource) => void;
  readonly reject: (error: unknown) => void;
}

export class RunBoard {
  readonly #client: TfcClient;
  readonly #options: BoardOptions;
  /** Runs being followed now. */
  #following = 0;
  #pending: Look[] = [];
  #sweeping: Promise<void> | undefined;
  #lastSweep = 0;
  /** Pages the last listing took: a sweep costs that many requests. */
  #pages = 1;
  /** Sweeps made (benches and tests read it). */
  sweeps = 0;

  constructor(client: TfcClient, options: BoardOptions) {
    this.#client = client.forOwner("run board");
    this.#options = options;
  }

  /** Marks a run as followed until the returned function is called. */
  follow(): () => void {
    this.#following++;
    let done = false;
    return () => {
      if (!done) this.#following--;
      done = true;
    };
  }

  /** The run as of the next look: its own read while few runs are followed, else the next sweep's. */
  read(runId: string, workspace: string, readOne: () => Promise<Resource>): Promise<Resource> {
    if (this.#following < Math.max(this.#options.batchFrom ?? 4, this.#pages + 1)) return readOne();
    return new Promise<Resource>((resolve, reject) => {
      this.#pending.push({ runId, workspace, readOne, resolve, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#sweeping) return;
    this.#sweeping = (async () => {
      const wait = this.#lastSweep + (this.#options.sweepEveryMs ?? 1000) - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.#lastSweep = Date.now();
      const looks = this.#pending;
      this.#pending = [];
      await this.#sweep(looks);
    })().finally(() => {
      this.#sweeping = undefined;
      if (this.#pending.length > 0) this.#schedule();
    });
  }

  async #sweep(looks: readonly Look[]): Promise<void> {
    let current: Map<string, Resource>;
    try {
      current = await this.#currentRuns();
      this.sweeps++;
    } catch (error) {
      for (const look of looks) look.reject(error);
      return;
    }
    await Promise.all(looks.map(async (look) => {
      const run = current.get(look.workspace);
      try {
        look.resolve(run?.id === look.runId ? run : await look.readOne());
      } catch (error) {
        look.reject(error);
      }
    }));
  }

  /** Workspace name → its current run, over every page of the driver's workspaces. */
  async #currentRuns(): Promise<Map<string, Resource>> {
    const { organization, prefix, tag } = this.#options;
    const query = [
      `search%5Btags%5D=${encodeURIComponent(tag)}`,
      ...(prefix !== "" ? [`search%5Bwildcard-name%5D=${encodeURIComponent(`${prefix}*`)}`] : []),
      "include=current_run", "page%5Bsize%5D=100",
    ].join("&");
    const out = new Map<string, Resource>();
    for (let page = 1; page <= 1000; page++) {
      const doc = await this.#client.api(`list the workspaces of organization "${organization}"`, "GET",
        `/organizations/${encodeURIComponent(organization)}/workspaces?${query}&page%5Bnumber%5D=${page}`);
      const runs = new Map((doc?.included ?? []).filter((resource) => resource.type === "runs").map((run) => [run.id, run]));
      for (const ws of (doc?.data ?? []) as Resource[]) {
        const rel = ws.relationships?.["current-run"]?.data;
        const run = rel && !Array.isArray(rel) ? runs.get(rel.id) : undefined;
        if (run) out.set(String(ws.attributes.name), run);
      }
      if (!doc?.meta?.pagination?.["next-page"]) {
        this.#pages = page;
        break;
      }
    }
    return out;
  }
}
