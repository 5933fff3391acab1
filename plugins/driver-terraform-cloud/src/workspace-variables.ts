/**
 * @module Keeps a workspace's variables equal to the task's, writing only those whose value changed
 * (HCP Terraform allows about 30 requests a second per user; CTS rewrote them all). Terraform
 * variables carry the inputs and provider settings, environment variables the providers'
 * `task_env`. Sensitive values read back as null, so each variable's description carries a hash of
 * what was written; the list is read once and then tracked in memory.
 */
import type { Logger } from "../../../core/plugin-api/mod.ts";
import { sha256Hex } from "./bytes.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import type { DesiredVariable } from "./workspace-inputs.ts";
import type { WorkspaceInfo } from "./workspace.ts";

const MARKER = "Managed by cts-runtime; sha256:";

interface Known {
  readonly id: string;
  readonly hash: string | undefined;
}

/** `terraform:services`, `env:AWS_REGION`: a key is unique within its category. */
const slot = (variable: Pick<DesiredVariable, "category" | "key">): string => `${variable.category}:${variable.key}`;

const hashOf = (variable: DesiredVariable): Promise<string> => sha256Hex(`${variable.sensitive}\n${variable.value}`);

export class WorkspaceVariables {
  readonly #client: TfcClient;
  readonly #ws: WorkspaceInfo;
  readonly #logger: Logger;
  #known: Map<string, Known> | undefined;

  constructor(client: TfcClient, ws: WorkspaceInfo, logger: Logger) {
    this.#client = client;
    this.#ws = ws;
    this.#logger = logger;
  }

  /** Writes what differs and deletes what this driver wrote and no longer wants; returns how many changed. */
  async sync(desired: readonly DesiredVariable[], signal: AbortSignal): Promise<number> {
    try {
      return await this.#sync(desired, signal);
    } catch (error) {
      // What the workspace holds is unknown after a failure: read it again next time.
      this.#known = undefined;
      throw error;
    }
  }

  /** The keys of `desired` the workspace does not hold as given (read only: inspect writes nothing). */
  async differing(desired: readonly DesiredVariable[], signal: AbortSignal): Promise<string[]> {
    const known = this.#known ?? await this.#load(signal);
    const out: string[] = [];
    for (const variable of desired) if (known.get(slot(variable))?.hash !== await hashOf(variable)) out.push(variable.key);
    return out;
  }

  async #sync(desired: readonly DesiredVariable[], signal: AbortSignal): Promise<number> {
    const known = this.#known ?? await this.#load(signal);
    this.#known = known;
    const path = `/workspaces/${this.#ws.id}/vars`;
    let changed = 0;
    const wanted = new Set(desired.map(slot));
    for (const variable of desired) {
      const hash = await hashOf(variable);
      const existing = known.get(slot(variable));
      if (existing?.hash === hash) continue;
      const attributes = {
        key: variable.key, value: variable.value, category: variable.category, hcl: variable.category === "terraform",
        sensitive: variable.sensitive, description: `${MARKER}${hash}`,
      };
      const what = `write variable "${variable.key}" of workspace "${this.#ws.name}"`;
      const doc = existing
        ? await this.#client.api(what, "PATCH", `${path}/${existing.id}`, { data: { type: "vars", id: existing.id, attributes } }, { signal })
        : await this.#client.api(what, "POST", path, { data: { type: "vars", attributes } }, { signal });
      known.set(slot(variable), { id: (doc!.data as Resource).id, hash });
      changed++;
    }
    for (const [key, entry] of [...known]) {
      // Only variables this driver wrote (hash present) are removed; the operator's stay.
      if (wanted.has(key) || entry.hash === undefined) continue;
      await this.#client.api(`delete variable "${key.slice(key.indexOf(":") + 1)}" of workspace "${this.#ws.name}"`, "DELETE", `${path}/${entry.id}`, undefined, { signal });
      known.delete(key);
      changed++;
    }
    if (changed > 0) this.#logger.debug("workspace variables written", { workspace_name: this.#ws.name, changed });
    return changed;
  }

  async #load(signal: AbortSignal): Promise<Map<string, Known>> {
    const doc = await this.#client.api(`list the variables of workspace "${this.#ws.name}"`, "GET", `/workspaces/${this.#ws.id}/vars`, undefined, { signal });
    const known = new Map<string, Known>();
    for (const variable of (doc?.data ?? []) as Resource[]) {
      const a = variable.attributes;
      if (a.category !== "terraform" && a.category !== "env") continue;
      const description = String(a.description ?? "");
      known.set(`${a.category}:${a.key}`, { id: variable.id, hash: description.startsWith(MARKER) ? description.slice(MARKER.length) : undefined });
    }
    return known;
  }
}
