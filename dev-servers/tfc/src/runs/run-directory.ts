/**
 * @module The scratch directory a run executes in: the uploaded configuration unpacked under
 * `config/`, a backend override that points Terraform at the run's own state file (replacing any
 * `cloud` or `backend` block, as HCP Terraform does), the variables files, and the workspace's
 * current state. The saved plan lives beside it until the apply.
 */
import type { FileSystem } from "../../../../core/plugin-api/mod.ts";
import { extractTarGz } from "../../../../core/runtime/tar-archive.ts";
import type { RunVariable, VariableRecord } from "../state/records.ts";
import { variableFiles } from "./variable-files.ts";

export interface RunInputs {
  readonly archive: Uint8Array;
  /** The workspace's `working-directory`, relative to the configuration root. */
  readonly workingDirectory: string;
  readonly variables: readonly VariableRecord[];
  readonly runVariables: readonly RunVariable[];
  /** The current state version's bytes, if the workspace has one. */
  readonly currentState: Uint8Array | null;
}

export class RunDirectory {
  readonly statePath: string;
  readonly planPath: string;
  readonly dataDir: string;
  readonly workDir: string;

  readonly root: string;

  private constructor(root: string, files: FileSystem, workingDirectory: string) {
    this.root = root;
    this.statePath = files.resolve(root, "state", "terraform.tfstate");
    this.planPath = files.resolve(root, "tfplan");
    this.dataDir = files.resolve(root, "terraform-data");
    this.workDir = files.resolve(root, "config", workingDirectory);
  }

  static async prepare(root: string, files: FileSystem, inputs: RunInputs): Promise<RunDirectory> {
    const workingDirectory = inputs.workingDirectory.replace(/^\/+/, "");
    if (workingDirectory.split("/").includes("..")) throw new Error(`working directory ${inputs.workingDirectory} leaves the configuration`);
    const dir = new RunDirectory(root, files, workingDirectory);
    await extractTarGz(inputs.archive, files.resolve(root, "config"));
    await files.mkdir(dir.workDir);
    await files.mkdir(files.resolve(root, "state"));
    await files.writeText(files.resolve(dir.workDir, "zzz_tfc_dev_backend_override.tf"), backendOverride(dir.statePath));
    const vars = variableFiles(inputs.variables, inputs.runVariables);
    await files.writeText(files.resolve(dir.workDir, "zzz_tfc_dev_workspace.auto.tfvars.json"), vars.json);
    if (vars.hcl !== "") await files.writeText(files.resolve(dir.workDir, "zzz_tfc_dev_workspace_hcl.auto.tfvars"), vars.hcl);
    if (inputs.currentState) await files.writeText(dir.statePath, new TextDecoder().decode(inputs.currentState));
    return dir;
  }
}

function backendOverride(statePath: string): string {
  return [
    "# Written by the embedded HCP Terraform-compatible server: the run keeps its state in the workspace.",
    "terraform {",
    "  backend \"local\" {",
    `    path = ${JSON.stringify(statePath)}`,
    "  }",
    "}",
    "",
  ].join("\n");
}
