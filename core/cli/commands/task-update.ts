/**
 * @module `task update -task-file=<file> [-auto-approve]` (beyond CTS, CTS#302): the file's one task
 * replaces the running task of that name, keeping its history and state. It prompts as `task
 * create` does: the plan of the change (`PATCH ?run=inspect`), approval, then `PATCH ?run=now`.
 * Fields the file leaves out go back to their defaults (sent as `null`).
 */
import { ExitCode, type CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { formatCommandHelp } from "../format-help.ts";
import { approvedOrCancelled, autoApproveFlag, runTaskCommand, terraformApprovalWarning } from "./task-shared.ts";
import { taskFromFileFlag } from "./task-file-body.ts";

interface UpdateAnswer {
  readonly request_id?: string;
  readonly inspect?: { readonly plan?: string; readonly changes_present?: boolean; readonly url?: string };
}

/** Optional task fields: absent from the file means "back to the default". */
const RESETTABLE = ["module_input", "buffer_period", "drift_detection", "description", "version", "providers", "variables"];

/** The PATCH body: every field of the file's task, and `null` for the optional ones it leaves out. */
export function updateBody(task: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...task };
  for (const field of RESETTABLE) if (body[field] === undefined) body[field] = null;
  return body;
}

const taskUpdateCommand: CliCommand = {
  name: "task update",
  summary: "Changes a running task from a task file, showing and applying its plan",
  synopsis: "[-help] [options] -task-file=<task config>",
  usage: "Reads the one task block of -task-file (HCL or JSON); the task of that name on the running daemon\n" +
    "takes its configuration (its history and state are kept). Shows the changes it would make, asks for\n" +
    "approval, then updates the task and runs it.",
  flags: [
    ...clientFlags,
    { name: "task-file", type: "string", placeholder: "<file>", help: "The HCL or JSON file holding exactly one task block." },
    autoApproveFlag,
  ],
  flagError(message, _args, io) {
    io.out(`${message}\n${formatCommandHelp(taskUpdateCommand)}`);
    return ExitCode.flagParseError;
  },
  async run(args, io) {
    const task = await taskFromFileFlag(args, io, "task update", "unable to update task");
    if (typeof task === "number") return task;
    const body = updateBody(task);
    return await runTaskCommand(args, io, "task update", 0, async (client, _positionals, ui, step) => {
      const name = String(task.name);
      const path = `/v1/tasks/${encodeURIComponent(name)}`;
      ui.info(`Inspecting changes to resource if updating task '${name}'...\n`);
      ui.output("Generating plan that Consul-Terraform-Sync will use Terraform to execute\n");
      step.failing = `unable to generate plan for '${name}'`;
      const inspected = (await client.request("PATCH", `${path}?run=inspect`, body)).body as UpdateAnswer;
      ui.output(`Request ID: ${inspected.request_id ?? ""}`);
      ui.output(`Request Payload:\n${JSON.stringify(body, null, 2)}\n`);
      ui.output(`Plan: \n${inspected.inspect?.plan ?? ""}`);
      if (inspected.inspect?.url) ui.output(`Terraform Cloud Run URL: ${inspected.inspect.url}\n`);
      const approved = await approvedOrCancelled(args, ui, {
        action: "updating",
        name,
        ask: () => {
          ui.info("Updating the task will perform the actions described above.");
          ui.output(terraformApprovalWarning(name));
        },
      });
      if (!approved) return 0;
      ui.info(`Updating and running task '${name}'...`);
      ui.output("The task update request has been sent to the CTS server.\n" +
        "Please be patient as it may take some time to see a confirmation that this task has completed.\n" +
        "Warning: Terminating this process will not stop the task update.\n");
      step.failing = `unable to update '${name}'`;
      const updated = (await client.request("PATCH", `${path}?run=now`, body)).body as UpdateAnswer;
      ui.info(`Task '${name}' updated`);
      ui.output(`Request ID: '${updated.request_id ?? ""}'`);
      return 0;
    });
  },
};

export default taskUpdateCommand;
