/** @module `task disable <name>`: CTS's PATCH `{"enabled":false}`, no prompt, CTS's texts. */
import type { CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { runTaskCommand, taskFlagError } from "./task-shared.ts";

const taskDisableCommand: CliCommand = {
  name: "task disable",
  summary: "Disables a task: it stops running until enabled again",
  synopsis: "[-help] [options] <task name>",
  usage: "Disables the task on the running daemon. A run in progress finishes first.\n\nArguments: <task name> (after the options)",
  flags: clientFlags,
  flagError: taskFlagError(() => taskDisableCommand),
  run: (args, io) =>
    runTaskCommand(args, io, "task disable", 1, async (client, [name], ui, step) => {
      ui.info(`Waiting to disable '${name}'...`);
      ui.output("");
      step.failing = `unable to disable '${name}'`;
      await client.request("PATCH", `/v1/tasks/${encodeURIComponent(name!)}`, { enabled: false });
      ui.info(`'${name}' disable complete!`);
      return 0;
    }),
};

export default taskDisableCommand;
