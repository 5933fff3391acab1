/**
 * @module Following a run until it ends, and saying why it waits. Every wait is visible: the reason
 * (`waiting for approval`, `waiting for a policy override`, `workspace locked by …`, `queued in HCP
 * Terraform`) shows in the task's status at once and is logged at INFO at a steady interval (at once
 * for a wait on a person); a stop ends the wait (the run stays in HCP Terraform, where the next
 * leader finds it). A run waiting for a person gives way when newer inputs of its task arrive, as
 * CTS discards such a run for the newer one. Polls are spaced by the run's state: slow while it
 * queues, close as it nears its end.
 */
import { CtsError, formatGoDuration, type Logger, sleep } from "../../../core/plugin-api/mod.ts";
import type { RunBoard } from "./run-board.ts";
import { awaitingPerson, isFinal, isQueued, pollSchedule } from "./run-states.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import type { WorkspaceInfo } from "./workspace.ts";

/** A run as last read, with its plan (`include=plan`: its resource counts cost no extra request). */
export type FollowedRun = Resource & { readonly plan?: Resource };

/** What the task engine offers a run that waits (DriverContext). */
export interface WaitHooks {
  /** The task's status shows why its run waits; undefined when it no longer does. */
  waiting(reason: string | undefined): void;
  /** True when newer inputs of the task wait for this run to end. */
  superseded(): boolean;
}

export const NO_HOOKS: WaitHooks = { waiting: () => {}, superseded: () => false };

export interface RunWatch {
  readonly client: TfcClient;
  readonly ws: WorkspaceInfo;
  readonly runId: string;
  readonly url: string;
  readonly logger: Logger;
  /** Ends the wait: the daemon is stopping (or an inspection was called off). */
  readonly signal: AbortSignal;
  readonly hooks: WaitHooks;
  /** How often a continuing wait is logged. */
  readonly logEveryMs: number;
  /** Reads many followed runs together (one per driver block). */
  readonly board?: RunBoard;
}

export interface Followed {
  readonly run: FollowedRun;
  /** The run waited for a person when newer inputs arrived: it should make way for them. */
  readonly superseded: boolean;
}

async function readOne(watch: RunWatch): Promise<FollowedRun> {
  const { client, ws, runId, signal } = watch;
  const doc = await client.api(`read run ${runId} of workspace "${ws.name}"`, "GET", `/runs/${runId}?include=plan`, undefined, { signal });
  const data = doc!.data as Resource;
  const plan = doc!.included?.find((resource) => resource.type === "plans");
  return plan ? { ...data, plan } : data;
}

/** The run now: on its own, or from the board's next sweep (then read once more at its end, for its plan). */
async function readRun(watch: RunWatch): Promise<FollowedRun> {
  if (!watch.board) return await readOne(watch);
  let own = false;
  const one = () => {
    own = true;
    return readOne(watch);
  };
  const run = await watch.board.read(watch.runId, watch.ws.name, one);
  return !own && isFinal(String(run.attributes.status)) ? await one() : run;
}

/** Who holds the workspace a pending run waits for. */
async function lockHolder(watch: RunWatch): Promise<string | undefined> {
  const { client, ws, runId, signal } = watch;
  const doc = await client.api(`read workspace "${ws.name}"`, "GET", `/workspaces/${ws.id}`, undefined, { signal });
  const a = (doc!.data as Resource).attributes;
  const holder = (doc!.data as Resource).relationships?.["locked-by"]?.data;
  if (a.locked !== true || !holder || Array.isArray(holder) || holder.id === runId) return undefined;
  const why = typeof a["locked-reason"] === "string" && a["locked-reason"] !== "" ? `: ${a["locked-reason"]}` : "";
  return holder.type === "runs" ? `workspace busy with run ${holder.id}` : `workspace locked by ${holder.type.replace(/s$/, "")} ${holder.id}${why}`;
}

/** Why the run waits, or undefined while it makes progress. `person` when only a person can end the wait. */
async function waitReason(watch: RunWatch, run: FollowedRun, pendingPolls: number): Promise<{ text: string; person: boolean } | undefined> {
  const status = String(run.attributes.status);
  const person = awaitingPerson(status, run.attributes.actions?.["is-confirmable"] === true);
  if (person === "policy override") return { text: "waiting for a policy override", person: true };
  if (person === "approval") return { text: "waiting for approval", person: true };
  // A run pending for a moment is normal; after that, ask the workspace who holds it.
  if (status === "pending" && pendingPolls >= 2) {
    const holder = await lockHolder(watch);
    if (holder) return { text: holder, person: !holder.startsWith("workspace busy") };
  }
  if (!isQueued(status)) return undefined;
  const position = Number(run.attributes["position-in-queue"] ?? 0);
  return { text: `queued in HCP Terraform${position > 0 ? ` (position ${position})` : ""}`, person: false };
}

export async function followRun(watch: RunWatch): Promise<Followed> {
  const { hooks, logger, ws, runId, url, signal } = watch;
  let status = "";
  let delay = 0;
  let pendingPolls = 0;
  let reason: string | undefined;
  let waitingSince = Date.now();
  let loggedAt = 0;
  const release = watch.board?.follow();
  const stopped = () => new CtsError("CTS_ERR_DRIVER",
    `Cannot follow run ${runId} of workspace "${ws.name}": stopping while it was "${status}"${reason ? ` (${reason})` : ""}; the run stays in HCP Terraform (${url})`);
  try {
    for (;;) {
      let run: FollowedRun;
      let why: Awaited<ReturnType<typeof waitReason>>;
      try {
        run = await readRun(watch);
        if (isFinal(String(run.attributes.status))) return { run, superseded: false };
        pendingPolls = run.attributes.status === "pending" ? pendingPolls + 1 : 0;
        why = await waitReason(watch, run, pendingPolls);
      } catch (error) {
        // A stop cuts the request short: say so, not "aborted".
        throw signal.aborted ? stopped() : error;
      }
      const now = String(run.attributes.status);
      const schedule = pollSchedule(now, why?.person === true);
      if (now !== status) {
        status = now;
        delay = schedule.firstMs;
      }
      if (why?.text !== reason) {
        reason = why?.text;
        waitingSince = Date.now();
        loggedAt = 0;
        hooks.waiting(reason === undefined ? undefined : `run ${runId} ${reason} (${url})`);
      }
      // A wait on a person is said at once; a queue only once it lasted a whole interval.
      const due = loggedAt === 0 ? (why?.person ? 0 : watch.logEveryMs) : watch.logEveryMs;
      if (why && Date.now() - (loggedAt || waitingSince) >= due) {
        loggedAt = Date.now();
        logger.info("run is waiting in HCP Terraform", {
          workspace_name: ws.name, run_id: runId, reason: why.text, waited: formatGoDuration(Math.round((Date.now() - waitingSince) / 1000) * 1000), url,
        });
      }
      if (why?.person && hooks.superseded()) return { run, superseded: true };
      if (signal.aborted) throw stopped();
      await sleep(delay, signal);
      delay = Math.min(Math.ceil(delay * 1.5), schedule.maxMs);
    }
  } finally {
    release?.();
    if (reason !== undefined) hooks.waiting(undefined);
  }
}
