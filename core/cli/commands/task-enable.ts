/**
 * @module `task enable <name> [-auto-approve]`: shows the plan enabling would apply, then enables
 * (and runs at once when the plan has changes and the user approved).
 */
import type { CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { approvedOrCancelled, autoApproveFlag, runTaskCommand } from "./task-shared.ts";

const usage = "cts-runtime task enable [options] <task name>";

interface InspectAnswer {
  readonly inspect?: { readonly changes_present?: boolean; readonly plan?: string; readonly url?: string };
}

const taskEnableCommand: CliCommand = {
  name: "task enable",
  summary: "Enables a task, showing and applying its plan",
  usage: "Shows the changes enabling the task would make, asks for approval, then enables and runs it.\n\nArguments: <task name> (after the options)",
  flags: [...clientFlags, autoApproveFlag],
  run: (args, io) =>
    runTaskCommand(args, io, 1, usage, async (client, [name], ui) => {
      const path = `/v1/tasks/${encodeURIComponent(name!)}`;
      ui.info(`Inspecting changes to resources if enabling '${name}'...\n`);
      ui.output("Generating the plan Terraform would carry out for this task\n");
      const inspected = (await client.request("PATCH", `${path}?run=inspect`, { enabled: true })).body as InspectAnswer;
      ui.output(`Plan:\n${inspected.inspect?.plan ?? ""}`);
      if (inspected.inspect?.url) ui.output(`Plan URL: ${inspected.inspect.url}`);
      if (!inspected.inspect?.changes_present) {
        ui.info(`No changes to apply: enabling '${name}'...`);
        await client.request("PATCH", path, { enabled: true });
        ui.info(`'${name}' enable complete!`);
        return 0;
      }
      const approved = await approvedOrCancelled(args, ui, {
        note: "Enabling the task runs it now and applies the changes above.",
        question: `Enable and run '${name}'?`,
        cancelled: `Cancelled enabling '${name}'`,
      });
      if (!approved) return 0;
      ui.info(`Enabling and running '${name}'...`);
      await client.request("PATCH", `${path}?run=now`, { enabled: true });
      ui.info(`'${name}' enable complete!`);
      return 0;
    }),
};

export default taskEnableCommand;
