/** @module `task disable <name>`: CTS's PATCH `{"enabled":false}`, no prompt. */
import type { CliCommand } from "../command.ts";
import { clientFlags } from "../api-client.ts";
import { runTaskCommand } from "./task-shared.ts";

const usage = "cts-runtime task disable [options] <task name>";

const taskDisableCommand: CliCommand = {
  name: "task disable",
  summary: "Disables a task: it stops running until enabled again",
  usage: "Disables the task on the running daemon. A run in progress finishes first.\n\nArguments: <task name> (after the options)",
  flags: clientFlags,
  run: (args, io) =>
    runTaskCommand(args, io, 1, usage, async (client, [name], ui) => {
      ui.info(`Waiting to disable '${name}'...`);
      await client.request("PATCH", `/v1/tasks/${encodeURIComponent(name!)}`, { enabled: false });
      ui.info(`'${name}' disable complete!`);
      return 0;
    }),
};

export default taskDisableCommand;
