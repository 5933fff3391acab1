/**
 * @module `task create -task-file=<file> [-auto-approve]`: shows the plan of the new task, asks,
 * then creates it and runs it at once (CTS's flow, in CTS's words).
 */
import { ExitCode, type CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { formatCommandHelp } from "../format-help.ts";
import { approvedOrCancelled, autoApproveFlag, runTaskCommand, terraformApprovalWarning } from "./task-shared.ts";
import { taskFromFileFlag } from "./task-file-body.ts";

interface CreateAnswer {
  readonly request_id?: string;
  readonly run?: { readonly plan?: string; readonly changes_present?: boolean; readonly tfc_run_url?: string };
}

const taskCreateCommand: CliCommand = {
  name: "task create",
  summary: "Creates a task from a task file, showing and applying its plan",
  synopsis: "[-help] [options] -task-file=<task config>",
  usage: "Reads the one task block of -task-file (HCL or JSON), shows the changes it would make, asks for\napproval, then creates the task on the running daemon and runs it.",
  flags: [
    ...clientFlags,
    { name: "task-file", type: "string", placeholder: "<file>", help: "The HCL or JSON file holding exactly one task block." },
    autoApproveFlag,
  ],
  // CTS: Go's flag line, then the help, both on stdout (task_create.go sets Usage to print Help()).
  flagError(message, _args, io) {
    io.out(`${message}\n${formatCommandHelp(taskCreateCommand)}`);
    return ExitCode.flagParseError;
  },
  async run(args, io) {
    const task = await taskFromFileFlag(args, io, "task create", "unable to create request");
    if (typeof task === "number") return task;
    return await runTaskCommand(args, io, "task create", 0, async (client, _positionals, ui, step) => {
      const name = String(task.name);
      ui.info(`Inspecting changes to resource if creating task '${name}'...\n`);
      ui.output("Generating plan that Consul-Terraform-Sync will use Terraform to execute\n");
      step.failing = `unable to generate plan for '${name}'`;
      const inspected = (await client.request("POST", "/v1/tasks?run=inspect", { task })).body as CreateAnswer;
      ui.output(`Request ID: ${inspected.request_id ?? ""}`);
      ui.output(`Request Payload:\n${JSON.stringify({ task }, null, 2)}\n`);
      ui.output(`Plan: \n${inspected.run?.plan ?? ""}`);
      if (inspected.run?.tfc_run_url) ui.output(`Terraform Cloud Run URL: ${inspected.run.tfc_run_url}\n`);
      const approved = await approvedOrCancelled(args, ui, {
        action: "creating",
        name,
        ask: () => {
          ui.info("Creating the task will perform the actions described above.");
          ui.output(terraformApprovalWarning(name));
        },
      });
      if (!approved) return 0;
      ui.info(`Creating and running task '${name}'...`);
      ui.output("The task creation request has been sent to the CTS server.\n" +
        "Please be patient as it may take some time to see a confirmation that this task has completed.\n" +
        "Warning: Terminating this process will not stop task creation.\n");
      step.failing = `unable to create '${name}'`;
      const created = (await client.request("POST", "/v1/tasks?run=now", { task })).body as CreateAnswer;
      ui.info(`Task '${name}' created`);
      ui.output(`Request ID: '${created.request_id ?? ""}'`);
      return 0;
    });
  },
};

export default taskCreateCommand;
