/**
 * @module `task enable <name> [-auto-approve]`: shows the plan enabling would apply, then enables
 * (and runs at once when the plan has changes and the user approved), in CTS's words.
 */
import type { CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { approvedOrCancelled, autoApproveFlag, runTaskCommand, taskFlagError, terraformApprovalWarning } from "./task-shared.ts";

interface InspectAnswer {
  readonly inspect?: { readonly changes_present?: boolean; readonly plan?: string; readonly url?: string };
}

const taskEnableCommand: CliCommand = {
  name: "task enable",
  summary: "Enables a task, showing and applying its plan",
  synopsis: "[-help] [options] <task name>",
  usage: "Shows the changes enabling the task would make, asks for approval, then enables and runs it.\n\nArguments: <task name> (after the options)",
  flags: [...clientFlags, autoApproveFlag],
  flagError: taskFlagError(() => taskEnableCommand),
  run: (args, io) =>
    runTaskCommand(args, io, "task enable", 1, async (client, [name], ui, step) => {
      const path = `/v1/tasks/${encodeURIComponent(name!)}`;
      ui.info(`Inspecting changes to resource if enabling '${name}'...\n`);
      ui.output("Generating plan that Consul-Terraform-Sync will use Terraform to execute\n");
      step.failing = `unable to generate plan for '${name}'`;
      const inspected = (await client.request("PATCH", `${path}?run=inspect`, { enabled: true })).body as InspectAnswer;
      ui.output(inspected.inspect?.plan ?? "");
      if (inspected.inspect?.url) ui.output(`Terraform Cloud Run URL: ${inspected.inspect.url}\n`);
      if (!inspected.inspect?.changes_present) {
        // Nothing to apply: enable without running, as CTS does.
        step.failing = `unable to enable '${name}'`;
        await client.request("PATCH", path, { enabled: true });
        ui.info(`'${name}' enable complete!`);
        return 0;
      }
      const approved = await approvedOrCancelled(args, ui, {
        action: "enabling",
        name: name!,
        ask: () => {
          ui.info("Enabling the task will perform the actions described above.");
          ui.output(terraformApprovalWarning(name!));
        },
      });
      if (!approved) return 0;
      ui.info(`Enabling and running '${name}'...\n`);
      step.failing = `unable to enable and run '${name}'`;
      await client.request("PATCH", `${path}?run=now`, { enabled: true });
      ui.info(`'${name}' enable complete!`);
      return 0;
    }),
};

export default taskEnableCommand;
