/**
 * @module `task delete <name> [-auto-approve] [-destroy]`: asks, then deletes the task, in CTS's
 * words; its infrastructure stays, as in CTS. Beyond CTS, `-destroy` first shows the plan of
 * destroying the task's resources, asks, then destroys them and deletes the task (task-destroy-flow.ts).
 */
import type { CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { approvedOrCancelled, autoApproveFlag, runTaskCommand, taskFlagError } from "./task-shared.ts";
import { destroyAndDelete } from "./task-destroy-flow.ts";

const taskDeleteCommand: CliCommand = {
  name: "task delete",
  summary: "Deletes a task (its infrastructure is left as it is, unless -destroy)",
  synopsis: "[-help] [options] <task name>",
  usage: "Deletes the task from the running daemon: at once if idle, else when its current run ends.\n" +
    "With -destroy, the task's resources are destroyed first (after showing their plan and asking);\n" +
    "a failed destroy keeps the task.\n\nArguments: <task name> (after the options)",
  flags: [
    ...clientFlags,
    autoApproveFlag,
    { name: "destroy", type: "bool", default: false, help: "Destroy the task's infrastructure, then delete the task (beyond CTS)." },
  ],
  flagError: taskFlagError(() => taskDeleteCommand),
  run: (args, io) =>
    runTaskCommand(args, io, "task delete", 1, async (client, [name], ui, step) => {
      if (args.flags.destroy === true) return destroyAndDelete(args, client, name!, ui, step);
      const approved = await approvedOrCancelled(args, ui, {
        action: "deleting",
        name: name!,
        ask: () => {
          ui.info(`Do you want to delete '${name}'?`);
          ui.output(" - This action cannot be undone.\n" +
            " - Deleting a task will not destroy the infrastructure managed by the task.\n" +
            " - If the task is not running, it will be deleted immediately.\n" +
            " - If the task is running, it will be deleted once it has completed.");
        },
      });
      if (!approved) return 0;
      ui.info(`Marking task '${name}' for deletion...\n`);
      step.failing = `unable to delete '${name}'`;
      const answer = (await client.request("DELETE", `/v1/tasks/${encodeURIComponent(name!)}`)).body as
        | { request_id?: string }
        | undefined;
      ui.info(`Task '${name}' has been marked for deletion and will be deleted when not running.`);
      if (answer?.request_id) ui.output(`Request ID: '${answer.request_id}'`);
      return 0;
    }),
};

export default taskDeleteCommand;
