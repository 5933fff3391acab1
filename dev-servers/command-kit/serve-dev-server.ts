/**
 * @module The shape every embedded dev-server command shares (`consul-dev`, `tfc-dev`, `vault-dev`):
 * read `-http-addr` and the command's own flags (a bad flag is a flag error), start the server (a
 * failure is a runtime error), print its banner, serve until SIGINT/SIGTERM, stop.
 */
import { CliExitCode, errorMessage, type CliCommandContext, type CliParsedArgs } from "../../core/plugin-api/mod.ts";
import { parseHttpAddr } from "./parse-http-addr.ts";

export interface DevServerSpec<Options, Server extends { stop(): Promise<void> }> {
  /** For errors: "the TFC dev server". */
  readonly what: string;
  /** The server's options from the listen address and the other flags; throws a readable error. */
  options(address: { hostname: string; port: number }, args: CliParsedArgs, context: CliCommandContext): Promise<Options>;
  /** Starts it; the command imports the server here, so that listing the commands loads no server. */
  start(options: Options): Promise<Server>;
  /** What to print once it listens (address, credentials). */
  banner(server: Server, options: Options): string;
}

export async function serveDevServer<Options, Server extends { stop(): Promise<void> }>(
  args: CliParsedArgs, context: CliCommandContext, spec: DevServerSpec<Options, Server>,
): Promise<number> {
  const address = parseHttpAddr(String(args.flags["http-addr"]));
  if (!address) {
    context.err(`Error: invalid -http-addr ${JSON.stringify(args.flags["http-addr"])}: expected <host:port>\n`);
    return CliExitCode.flagParseError;
  }
  let options: Options;
  try {
    options = await spec.options(address, args, context);
  } catch (error) {
    context.err(`Error: ${errorMessage(error)}\n`);
    return CliExitCode.flagParseError;
  }
  let server: Server;
  try {
    server = await spec.start(options);
  } catch (error) {
    context.err(`Error: cannot start ${spec.what}: ${errorMessage(error)}\n`);
    return CliExitCode.runtimeError;
  }
  context.out(spec.banner(server, options));
  const signal = await aborted(context.shutdownSignal());
  context.out(`==> Caught ${signal}, shutting down\n`);
  await server.stop();
  return CliExitCode.ok;
}

/** Resolves with the signal's reason once it is aborted. */
function aborted(signal: AbortSignal): Promise<string> {
  if (signal.aborted) return Promise.resolve(String(signal.reason));
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(String(signal.reason)), { once: true }));
}
