/**
 * @module Keeps a workspace's Terraform variables equal to the task's, writing only those whose
 * value changed (HCP Terraform allows about 30 requests a second per token; CTS rewrote them all).
 * Sensitive values read back as null, so each variable's description carries a hash of what was
 * written; the list is read once and then tracked in memory.
 */
import type { Logger } from "../../../core/plugin-api/mod.ts";
import { sha256Hex } from "./tar-gz.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import type { DesiredVariable } from "./workspace-inputs.ts";
import type { WorkspaceInfo } from "./workspace.ts";

const MARKER = "Managed by cts-runtime; sha256:";

interface Known {
  readonly id: string;
  readonly hash: string | undefined;
}

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

  /**
   * Writes what differs; returns how many variables were created, updated or deleted. With
   * `prune: false` only the given variables are written and none is deleted.
   */
  async sync(desired: readonly DesiredVariable[], signal: AbortSignal, prune = true): Promise<number> {
    try {
      return await this.#sync(desired, signal, prune);
    } catch (error) {
      // What the workspace holds is unknown after a failure: read it again next time.
      this.#known = undefined;
      throw error;
    }
  }

  async #sync(desired: readonly DesiredVariable[], signal: AbortSignal, prune: boolean): Promise<number> {
    const known = this.#known ?? await this.#load(signal);
    this.#known = known;
    const path = `/workspaces/${this.#ws.id}/vars`;
    let changed = 0;
    const wantedKeys = new Set(desired.map((variable) => variable.key));
    for (const variable of desired) {
      const hash = await sha256Hex(`${variable.sensitive}\n${variable.value}`);
      const existing = known.get(variable.key);
      if (existing?.hash === hash) continue;
      const attributes = {
        key: variable.key, value: variable.value, category: "terraform", hcl: true, sensitive: variable.sensitive,
        description: `${MARKER}${hash}`,
      };
      const what = `write variable "${variable.key}" of workspace "${this.#ws.name}"`;
      const doc = existing
        ? await this.#client.api(what, "PATCH", `${path}/${existing.id}`, { data: { type: "vars", id: existing.id, attributes } }, { signal })
        : await this.#client.api(what, "POST", path, { data: { type: "vars", attributes } }, { signal });
      known.set(variable.key, { id: (doc!.data as Resource).id, hash });
      changed++;
    }
    for (const [key, entry] of prune ? [...known] : []) {
      // Only variables this driver wrote (hash present) are removed; the operator's stay.
      if (wantedKeys.has(key) || entry.hash === undefined) continue;
      await this.#client.api(`delete variable "${key}" of workspace "${this.#ws.name}"`, "DELETE", `${path}/${entry.id}`, undefined, { signal });
      known.delete(key);
      changed++;
    }
    if (changed > 0) this.#logger.debug("workspace variables written", { workspace: this.#ws.name, changed });
    return changed;
  }

  async #load(signal: AbortSignal): Promise<Map<string, Known>> {
    const doc = await this.#client.api(`list the variables of workspace "${this.#ws.name}"`, "GET", `/workspaces/${this.#ws.id}/vars`, undefined, { signal });
    const known = new Map<string, Known>();
    for (const variable of (doc?.data ?? []) as Resource[]) {
      const a = variable.attributes;
      if (a.category !== "terraform") continue;
      const description = String(a.description ?? "");
      known.set(String(a.key), { id: variable.id, hash: description.startsWith(MARKER) ? description.slice(MARKER.length) : undefined });
    }
    return known;
  }
}
