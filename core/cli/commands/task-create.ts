/**
 * @module `task create -task-file=<file> [-auto-approve]`: shows the plan of the new task, asks,
 * then creates it and runs it at once (CTS's flow).
 */
import { ExitCode, type CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { approvedOrCancelled, autoApproveFlag, runTaskCommand, ui as makeUi } from "./task-shared.ts";
import { taskRequestFromFile } from "./task-request.ts";

const usage = "cts-runtime task create [options] -task-file=<file>";

interface CreateAnswer {
  readonly request_id?: string;
  readonly run?: { readonly plan?: string; readonly changes_present?: boolean; readonly tfc_run_url?: string };
}

const taskCreateCommand: CliCommand = {
  name: "task create",
  summary: "Creates a task from a task file, showing and applying its plan",
  usage: "Reads the one task block of -task-file (HCL or JSON), shows the changes it would make, asks for\napproval, then creates the task on the running daemon and runs it.",
  flags: [
    ...clientFlags,
    { name: "task-file", type: "string", placeholder: "<file>", help: "The HCL or JSON file holding exactly one task block." },
    autoApproveFlag,
  ],
  async run(args, io) {
    const file = (args.flags["task-file"] as string | undefined) ?? "";
    if (file === "") {
      makeUi(io).error(`-task-file is required\n\nUsage: ${usage}`);
      return ExitCode.requiredFlagMissing;
    }
    return await runTaskCommand(args, io, 0, usage, async (client, _positionals, ui) => {
      const task = await taskRequestFromFile(file, io.cwd, io.env);
      const name = String(task.name);
      ui.info(`Inspecting changes to resources if creating task '${name}'...\n`);
      ui.output("Generating the plan Terraform would carry out for this task\n");
      const inspected = (await client.request("POST", "/v1/tasks?run=inspect", { task })).body as CreateAnswer;
      ui.output(`Request ID: ${inspected.request_id ?? ""}`);
      ui.output(`Request Payload:\n${JSON.stringify({ task }, null, 2)}\n`);
      ui.output(`Plan:\n${inspected.run?.plan ?? ""}`);
      if (inspected.run?.tfc_run_url) ui.output(`Plan URL: ${inspected.run.tfc_run_url}`);
      const approved = await approvedOrCancelled(args, ui, {
        note: "Creating the task runs it now and applies the changes above.",
        question: `Create and run task '${name}'?`,
        cancelled: `Cancelled creating task '${name}'`,
      });
      if (!approved) return 0;
      ui.info(`Creating and running task '${name}'...`);
      const created = (await client.request("POST", "/v1/tasks?run=now", { task })).body as CreateAnswer;
      ui.output(`Request ID: ${created.request_id ?? ""}`);
      ui.info(`Task '${name}' created`);
      return 0;
    });
  },
};

export default taskCreateCommand;
