/** @module `task delete <name> [-auto-approve]`: asks, then deletes the task (not its infrastructure). */
import type { CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { approvedOrCancelled, autoApproveFlag, runTaskCommand } from "./task-shared.ts";

const usage = "cts-runtime task delete [options] <task name>";

const taskDeleteCommand: CliCommand = {
  name: "task delete",
  summary: "Deletes a task (its infrastructure is left as it is)",
  usage: "Deletes the task from the running daemon: at once if idle, else when its current run ends.\n\nArguments: <task name> (after the options)",
  flags: [...clientFlags, autoApproveFlag],
  run: (args, io) =>
    runTaskCommand(args, io, 1, usage, async (client, [name], ui) => {
      const approved = await approvedOrCancelled(args, ui, {
        question: `Delete task '${name}'?\n` +
          " - This cannot be undone.\n" +
          " - The resources the task's module created are NOT destroyed.\n" +
          " - If the task is running, it is deleted when the run ends.",
        cancelled: `Cancelled deleting '${name}'`,
      });
      if (!approved) return 0;
      ui.info(`Deleting task '${name}'...`);
      const answer = (await client.request("DELETE", `/v1/tasks/${encodeURIComponent(name!)}`)).body as
        | { request_id?: string }
        | undefined;
      if (answer?.request_id) ui.output(`Request ID: ${answer.request_id}`);
      ui.info(`Task '${name}' has been marked for deletion and will be deleted when it is not running.`);
      return 0;
    }),
};

export default taskDeleteCommand;
