/**
 * @module What CTS's task commands share: the `==> ` / 4-space output style, the approval prompt
 * (only a literal `yes` proceeds) and turning failures into CTS's exit codes.
 */
import { ExitCode, type CliIo, type FlagSpec, type ParsedArgs } from "../command.ts";
import { ApiRequestError, clientFromFlags, type CtsApiClient } from "../api-client.ts";
import { errorMessage } from "../../plugin-api/mod.ts";

export interface Ui {
  /** A headline: `==> text`. */
  info(text: string): void;
  /** Body text, every line indented 4 spaces. */
  output(text: string): void;
  error(text: string): void;
  /** Asks; true only for the exact answer `yes`. */
  approve(question: string): Promise<boolean>;
}

export function ui(io: CliIo): Ui {
  const indent = (text: string): string => text.split("\n").map((line) => (line === "" ? "" : `    ${line}`)).join("\n");
  return {
    info: (text) => io.out(`==> ${text}\n`),
    output: (text) => io.out(`${indent(text)}\n`),
    error: (text) => io.err(`==> Error: ${text}\n`),
    async approve(question) {
      io.out(`${indent(`${question}\n\nOnly 'yes' will be accepted to approve; anything else cancels.`)}\n\n`);
      const answer = await io.readLine("Enter a value: ");
      io.out("\n");
      return answer?.trim() === "yes";
    },
  };
}

/** The flag of the commands that ask before they change anything. */
export const autoApproveFlag: FlagSpec = { name: "auto-approve", type: "bool", default: false, help: "Skip the approval prompt." };

/**
 * True when `-auto-approve` was given or the user answers `yes`; otherwise prints `cancelled` and
 * the command ends with 0 (declining is not an error). `note`, if any, is said before the question.
 */
export async function approvedOrCancelled(
  args: ParsedArgs,
  ui: Ui,
  prompt: { readonly note?: string; readonly question: string; readonly cancelled: string },
): Promise<boolean> {
  if (args.flags["auto-approve"] === true) return true;
  if (prompt.note) ui.info(prompt.note);
  if (await ui.approve(prompt.question)) return true;
  ui.info(prompt.cancelled);
  return false;
}

/** A task command's body: gets the API client and the positional arguments. */
export type TaskAction = (client: CtsApiClient, positionals: readonly string[], ui: Ui) => Promise<number>;

/**
 * Checks the positional count (13 when wrong), builds the client, runs `action`, and maps an API
 * or transport failure to exit 11 with the daemon's message and request id.
 */
export async function runTaskCommand(
  args: ParsedArgs,
  io: CliIo,
  expectedPositionals: number,
  usage: string,
  action: TaskAction,
): Promise<number> {
  const out = ui(io);
  if (args.positionals.length !== expectedPositionals) {
    const what = expectedPositionals === 0 ? "no arguments" : `exactly ${expectedPositionals} argument (the task name)`;
    out.error(`this command takes ${what}, got ${args.positionals.length}; flags must come before the task name\n\nUsage: ${usage}`);
    return ExitCode.requiredFlagMissing;
  }
  try {
    const client = await clientFromFlags(args, io);
    return await action(client, args.positionals, out);
  } catch (error) {
    out.error(errorMessage(error));
    if (error instanceof ApiRequestError && error.requestId) io.err(`    Request ID: ${error.requestId}\n`);
    return ExitCode.runtimeError;
  }
}
