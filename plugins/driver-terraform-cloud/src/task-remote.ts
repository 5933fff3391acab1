/**
 * @module The HCP Terraform side of one task: its workspace, found or created with its settings
 * and tags, its uploaded configuration and its variables — set up on the first run (CTS's start-up
 * steps), and again when the workspace vanished (deleted by hand, a restarted server): a 404 on the
 * workspace finds or creates it anew, with a WARN, and the run goes on, instead of failing every
 * run until the daemon restarts.
 */
import type { Logger, TaskConfig } from "../../../core/plugin-api/mod.ts";
import { uploadConfiguration } from "./configuration-upload.ts";
import type { TerraformCloudOptions } from "./options.ts";
import { type Resource, TfcApiError, type TfcClient } from "./tfc-client.ts";
import { WorkspaceVariables } from "./workspace-variables.ts";
import { createWorkspace, ensureWorkspace, findWorkspace, wantedSettings, workspaceInfo, type WorkspaceInfo } from "./workspace.ts";

export interface Remote {
  readonly ws: WorkspaceInfo;
  readonly configurationVersionId: string;
  readonly variables: WorkspaceVariables;
}

export interface TaskRemoteDeps {
  readonly client: TfcClient;
  readonly options: TerraformCloudOptions;
  readonly task: TaskConfig;
  readonly logger: Logger;
  /** The configuration's tar.gz. */
  readonly archive: Uint8Array;
}

export class TaskRemote {
  readonly #deps: TaskRemoteDeps;
  #remote: Remote | undefined;
  /** The workspace as init read it (null: none), spares the first run a second read. */
  #found: Resource | null | undefined;

  constructor(deps: TaskRemoteDeps, found: Resource | null) {
    this.#deps = deps;
    this.#found = found;
  }

  /** The workspace found or created with its settings, and the configuration uploaded, once. */
  async ready(signal: AbortSignal): Promise<Remote> {
    if (this.#remote) return this.#remote;
    const { client, options, task, logger, archive } = this.#deps;
    const found = this.#found;
    this.#found = undefined;
    const ws = await ensureWorkspace(client, options, task, logger, signal, found);
    const configurationVersionId = await uploadConfiguration(client, ws, archive, false, logger, signal);
    this.#remote = { ws, configurationVersionId, variables: new WorkspaceVariables(client, ws, logger) };
    return this.#remote;
  }

  /** Runs `work` on the remote; when the workspace vanished meanwhile, sets it up again and runs `work` once more. */
  async use<T>(signal: AbortSignal, work: (remote: Remote) => Promise<T>): Promise<T> {
    const remote = await this.ready(signal);
    try {
      return await work(remote);
    } catch (error) {
      if (!(error instanceof TfcApiError) || error.status !== 404 || !(await this.#vanished(remote.ws, signal))) throw error;
      this.#deps.logger.warn("workspace not found in HCP Terraform: finding or creating it again", {
        workspace_name: remote.ws.name, workspace_id: remote.ws.id, error: error.message,
      });
      this.#remote = undefined;
      return await work(await this.ready(signal));
    }
  }

  /**
   * The workspace an inspection plans in, changing nothing: the one set up already, else the one
   * that exists, else a new one — CTS creates a task's workspace when the task starts, inspected
   * or not, and a speculative plan needs one; nothing else is written.
   */
  async forInspection(signal: AbortSignal): Promise<WorkspaceInfo> {
    if (this.#remote) return this.#remote.ws;
    const { client, options, task, logger } = this.#deps;
    const found = await findWorkspace(client, options, task, signal);
    if (found) return workspaceInfo(options, found);
    const ws = await createWorkspace(client, options, task, await wantedSettings(client, options, task, logger, signal), logger, signal);
    logger.info("created the workspace an inspection plans in, as CTS does when a task starts; nothing else is written", { workspace_name: ws.name });
    return ws;
  }

  async #vanished(ws: WorkspaceInfo, signal: AbortSignal): Promise<boolean> {
    const doc = await this.#deps.client.api(`read workspace "${ws.name}"`, "GET", `/workspaces/${ws.id}`, undefined, { allow404: true, signal });
    return doc === undefined;
  }
}
