/**
 * @module `cts-runtime start`: load config, boot the kernel, run until a signal or an exit request.
 * `runDaemon` is reused by `cts-runtime dev`.
 */
import { ExitCode, type CliCommand } from "../command.ts";
import type { CliIo } from "../../runtime/cli-io.ts";
import { configPathFlags, configPathsOf, type ConfigPath } from "../config-paths.ts";
import { createShutdownRequest } from "../shutdown-request.ts";
import { bootDaemon, type BootedDaemon } from "../boot-daemon.ts";
import { formatCommandHelp } from "../format-help.ts";
import { onShutdownSignal } from "../../runtime/signals.ts";
import { secretMaskerToken, type PluginDefinition, type RunOptions } from "../../plugin-api/mod.ts";

/** CTS waits up to 10 s for a graceful stop, then exits 12. */
const STOP_GRACE_MS = 10_000;

/** Go's names for the signals (`os.Signal.String()`), as CTS logs them. */
const GO_SIGNAL_NAMES: Readonly<Record<string, string>> = { SIGINT: "interrupt", SIGTERM: "terminated", SIGQUIT: "quit" };

export interface DaemonOptions {
  readonly configPaths: readonly ConfigPath[];
  readonly runOptions: RunOptions;
  readonly io: CliIo;
  /** In-process plugins beyond those the config names (dev mode, tests). */
  readonly plugins?: readonly PluginDefinition[];
  /** Called once the kernel runs (dev prints where to look). */
  readonly onRunning?: (daemon: BootedDaemon) => void | Promise<void>;
  /** Aborting stops the daemon like a signal does. */
  readonly signal?: AbortSignal;
  /** Listen here instead of the config's `api.address`. */
  readonly listenAddress?: string;
}

/** Runs until a signal, an exit request (once/inspect done) or `signal`; returns CTS's exit code. */
export async function runDaemon(options: DaemonOptions): Promise<number> {
  const shutdown = createShutdownRequest();
  const booted = await bootDaemon({ ...options, shutdown });
  if (typeof booted === "number") return booted;

  // CTS logs its shutdown lines under `cli` (command/start.go).
  const cliLogger = booted.logSink.logger("cli");
  let signalled = false;
  const unhook = onShutdownSignal((signal) => {
    // CTS's lines (command/start.go), which operators alert on: this one, then `graceful shutdown`.
    if (!signalled) cliLogger.info("signal received to initiate graceful shutdown", { signal: GO_SIGNAL_NAMES[signal] ?? signal });
    signalled = true;
    shutdown.requestExit(ExitCode.ok, `received ${signal}`);
  });
  options.signal?.addEventListener("abort", () => shutdown.requestExit(ExitCode.ok, "stopped"), { once: true });
  try {
    await options.onRunning?.(booted);
    const { code, reason } = await shutdown.requested;
    booted.logger.info("stopping", { reason });
    const stopped = await stopWithin(booted, STOP_GRACE_MS);
    if (!stopped) cliLogger.info("graceful shutdown timed out, exiting");
    else if (code === ExitCode.ok) cliLogger.info("graceful shutdown");
    // Logs may be JSON or filtered by level; the reason for a failing exit is always said plainly.
    if (code !== ExitCode.ok) options.io.err(`==> Error: ${booted.kernel.resolve(secretMaskerToken).mask(reason)}\n`);
    return stopped ? code : ExitCode.interrupt;
  } finally {
    unhook();
    await booted.closeLog();
  }
}

async function stopWithin(daemon: BootedDaemon, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    const stopped = daemon.kernel.stop().then(
      () => true,
      (error: unknown) => {
        daemon.logger.error("errors while stopping", { error });
        return true;
      },
    );
    return await Promise.race([stopped, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const startCommand: CliCommand = {
  name: "start",
  summary: "Starts the daemon (or runs tasks once with -once, or plans them with -inspect)",
  synopsis: "[-help] [options]",
  // CTS (command/start.go): Go's flag line, then the help, both on stdout; exit 14.
  flagError(message, _args, io) {
    io.out(`${message}\n${formatCommandHelp(startCommand)}`);
    return ExitCode.flagParseError;
  },
  usage: [
    "Starts cts-runtime: watches Consul and runs every task when its watched data changes.",
    "With -once it runs each task once and exits; with -inspect it plans each task and exits.",
  ].join("\n"),
  flags: [
    ...configPathFlags,
    { name: "once", type: "bool", help: "Run each task once, then exit (non-zero if any task failed)." },
    { name: "inspect", type: "bool", help: "Plan each task and print the plan, without applying; then exit." },
    {
      name: "inspect-task",
      type: "strings",
      placeholder: "<task name>",
      help: "Like -inspect, for the named task only.",
    },
    {
      name: "reset-storage",
      type: "bool",
      help: "With high availability: replace the stored tasks with this instance's config when it becomes leader.",
    },
    { name: "client-type", type: "string", help: "Development only.", hidden: true },
  ],
  run(args, io) {
    const configPaths = configPathsOf(args);
    if (configPaths.length === 0) {
      // CTS's lines (command/start.go): the headline on stderr, the reason and the hint on stdout.
      io.err("==> unable to start consul-terraform-sync\n");
      io.out("    no config file provided\n    For additional help try 'cts-runtime start --help'\n");
      io.err("==> Error: at least one -config-file or -config-dir is required\n");
      return Promise.resolve(ExitCode.requiredFlagMissing);
    }
    const inspectTasks = args.flags["inspect-task"] as readonly string[];
    const inspect = args.flags["inspect"] === true || inspectTasks.length > 0;
    const mode = inspect ? "inspect" : args.flags["once"] === true ? "once" : "daemon";
    return runDaemon({
      configPaths,
      io,
      runOptions: {
        mode, inspectTasks, resetStorage: args.flags["reset-storage"] === true,
        ...(typeof args.flags["client-type"] === "string" && args.flags["client-type"] !== "" ? { clientType: args.flags["client-type"] } : {}),
      },
    });
  },
};

export default startCommand;
