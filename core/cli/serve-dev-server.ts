/**
 * @module The shape every embedded dev-server command shares (`tfc-dev`, `vault-dev`): read
 * `-http-addr` and the command's own flags (a bad flag is a flag error), start the server (a failure
 * is a runtime error), print its banner, serve until SIGINT/SIGTERM, stop.
 */
import { errorMessage } from "../plugin-api/mod.ts";
import { waitForShutdownSignal } from "../runtime/signals.ts";
import { ExitCode, type ParsedArgs } from "./command.ts";
import type { CliIo } from "../runtime/cli-io.ts";
import { parseHttpAddr } from "./parse-http-addr.ts";

export interface DevServerSpec<Options, Server extends { stop(): Promise<void> }> {
  /** For errors: "the TFC dev server". */
  readonly what: string;
  /** The server's options from the listen address and the other flags; throws a readable error. */
  options(address: { hostname: string; port: number }, args: ParsedArgs, io: CliIo): Promise<Options>;
  start(options: Options): Promise<Server>;
  /** What to print once it listens (address, credentials). */
  banner(server: Server, options: Options): string;
}

export async function serveDevServer<Options, Server extends { stop(): Promise<void> }>(
  args: ParsedArgs, io: CliIo, spec: DevServerSpec<Options, Server>,
): Promise<number> {
  const address = parseHttpAddr(String(args.flags["http-addr"]));
  if (!address) {
    io.err(`Error: invalid -http-addr ${JSON.stringify(args.flags["http-addr"])}: expected <host:port>\n`);
    return ExitCode.flagParseError;
  }
  let options: Options;
  try {
    options = await spec.options(address, args, io);
  } catch (error) {
    io.err(`Error: ${errorMessage(error)}\n`);
    return ExitCode.flagParseError;
  }
  let server: Server;
  try {
    server = await spec.start(options);
  } catch (error) {
    io.err(`Error: cannot start ${spec.what}: ${errorMessage(error)}\n`);
    return ExitCode.runtimeError;
  }
  io.out(spec.banner(server, options));
  const signal = await waitForShutdownSignal();
  io.out(`==> Caught ${signal}, shutting down\n`);
  await server.stop();
  return ExitCode.ok;
}
