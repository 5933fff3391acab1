/** @module JSON:API views of state versions and their outputs. */
import type { Resource } from "../http/json-api.ts";
import { toOne } from "../http/json-api.ts";
import type { StateVersionOutputRecord, StateVersionRecord } from "../state/records.ts";
import type { ViewContext } from "./view-context.ts";

export function stateVersionView(sv: StateVersionRecord, ctx: ViewContext): Resource {
  return {
    id: sv.id,
    type: "state-versions",
    attributes: {
      "created-at": sv.createdAt,
      "size": sv.state.length,
      "serial": sv.serial,
      "lineage": sv.lineage,
      "md5": sv.md5,
      "status": "finalized",
      "intermediate": false,
      "state-version": sv.stateFormatVersion,
      "terraform-version": sv.terraformVersion,
      "resources-processed": true,
      "billable-rum-count": sv.resourceCount,
      "hosted-state-download-url": `${ctx.origin}/_archivist/v1/state/${sv.downloadSecret}`,
      "hosted-json-state-download-url": null,
      "hosted-state-upload-url": null,
      "hosted-json-state-upload-url": null,
      "vcs-commit-sha": null,
      "vcs-commit-url": null,
    },
    relationships: {
      "run": toOne("runs", sv.runId),
      "workspace": toOne("workspaces", sv.workspaceId),
      "created-by": toOne("users", "user-tfc-dev"),
      "outputs": { data: sv.outputs.map((output) => ({ id: output.id, type: "state-version-outputs" })) },
    },
    links: { self: `/api/v2/state-versions/${sv.id}` },
  };
}

/** `revealSensitive` is for reading one output by id; lists hide sensitive values. */
export function stateVersionOutputView(output: StateVersionOutputRecord, revealSensitive: boolean): Resource {
  return {
    id: output.id,
    type: "state-version-outputs",
    attributes: {
      "name": output.name,
      "sensitive": output.sensitive,
      "type": output.type,
      "value": output.sensitive && !revealSensitive ? null : output.value,
      "detailed-type": output.detailedType,
    },
    links: { self: `/api/v2/state-version-outputs/${output.id}` },
  };
}
