/**
 * @module Uploading the root module as a configuration version: create it, PUT the tar.gz to its
 * upload URL, wait until HCP Terraform has read it. An upload the server fails to read (the
 * version turns `errored`) is retried with a new version. The regular upload says so at INFO with
 * CTS's words and fields (`workspace_name`, `config_version_id`); a speculative one (inspect) at DEBUG.
 */
import { CtsError, type Logger, sleep } from "../../../core/plugin-api/mod.ts";
import type { Resource, TfcClient } from "./tfc-client.ts";
import type { WorkspaceInfo } from "./workspace.ts";

const ATTEMPTS = 3;
const WAIT_MS = 60_000;

export async function uploadConfiguration(
  client: TfcClient, ws: WorkspaceInfo, archive: Uint8Array, speculative: boolean, logger: Logger, signal: AbortSignal,
): Promise<string> {
  let lastError = "";
  const say = (message: string, fields: Record<string, unknown>) => (speculative ? logger.debug(message, fields) : logger.info(message, fields));
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    say("uploading new configuration version for workspace", { workspace_name: ws.name, ...(speculative ? { speculative } : {}) });
    const created = await client.api(`create a configuration version in workspace "${ws.name}"`, "POST", `/workspaces/${ws.id}/configuration-versions`, {
      data: { type: "configuration-versions", attributes: { "auto-queue-runs": false, speculative } },
    }, { signal });
    const cv = created!.data as Resource;
    await client.upload(`upload the configuration of workspace "${ws.name}"`, String(cv.attributes["upload-url"]), archive, signal);
    const status = await waitUploaded(client, ws, cv.id, signal);
    if (status.status === "uploaded") {
      say("uploaded new configuration version for workspace", { config_version_id: cv.id, workspace_name: ws.name, ...(speculative ? { speculative } : {}) });
      return cv.id;
    }
    lastError = status.message;
    logger.warn("configuration version errored, uploading again", { workspace_name: ws.name, config_version_id: cv.id, error: lastError, attempt });
  }
  throw new CtsError("CTS_ERR_DRIVER", `Cannot upload the configuration of workspace "${ws.name}": HCP Terraform could not read it ${ATTEMPTS} times: ${lastError}`);
}

async function waitUploaded(client: TfcClient, ws: WorkspaceInfo, id: string, signal: AbortSignal): Promise<{ status: string; message: string }> {
  const deadline = Date.now() + WAIT_MS;
  let delay = 100;
  for (;;) {
    const doc = await client.api(`read configuration version ${id} of workspace "${ws.name}"`, "GET", `/configuration-versions/${id}`, undefined, { signal });
    const a = (doc!.data as Resource).attributes;
    if (a.status === "uploaded") return { status: "uploaded", message: "" };
    if (a.status === "errored") return { status: "errored", message: String(a["error-message"] ?? a.error ?? "errored") };
    if (Date.now() > deadline || signal.aborted) {
      throw new CtsError("CTS_ERR_DRIVER", `Cannot upload the configuration of workspace "${ws.name}": version ${id} stayed "${a.status}"`);
    }
    await sleep(delay, signal);
    delay = Math.min(delay * 2, 1000);
  }
}
