/**
 * @module The log's copy for the local syslog (`syslog { enabled = true }`), as CTS sends it: every
 * line at `<facility>.notice`, tagged `<name>[<pid>]`, to the local socket (`/dev/log`, or the one
 * `CTS_SYSLOG_SOCKET` names). Node has no Unix datagram sockets, so one long-lived util-linux
 * `logger` process (present on every Linux) carries the lines there, read from its standard input.
 *
 * It never blocks or crashes the daemon: a line is handed to a pipe and forgotten; while the
 * receiver is absent (logger exits) lines are dropped and logger is started again with backoff; a
 * stalled receiver fills at most MAX_PENDING_BYTES of memory before lines are dropped. Each of these
 * is said once through `logger` (which must not write to syslog), and once more when lines flow again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import type { Logger } from "../plugin-api/mod.ts";

export interface SyslogOptions {
  /** CTS's facility name, any case (validated at config load). */
  readonly facility: string;
  /** The program name (tag) syslog shows. */
  readonly name: string;
  /** Where problems (WARN) and recoveries (INFO) are said: the daemon's stderr, never syslog itself. */
  readonly logger: Pick<Logger, "warn" | "info">;
}

export interface SyslogWriter {
  write(line: string): void;
  /** Ends logger's input so it sends what it holds, waiting at most `CLOSE_WAIT_MS`. */
  close(): Promise<void>;
}

/** Memory a stalled receiver may hold back before lines are dropped. */
const MAX_PENDING_BYTES = 1024 * 1024;
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 60_000;
const CLOSE_WAIT_MS = 2_000;

export function startSyslogWriter(options: SyslogOptions): SyslogWriter {
  const socket = process.env["CTS_SYSLOG_SOCKET"] ?? "";
  const args = [
    "-t", options.name, "-p", `${options.facility.toLowerCase()}.notice`, `--id=${process.pid}`, "--socket-errors=on",
    ...(socket ? ["-u", socket] : []),
  ];
  let child: ChildProcess | undefined;
  let closed = false;
  let restartMs = RESTART_FIRST_MS;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  let dropped = 0;
  let failing = false;
  let stalled = false;

  const start = (): void => {
    restartTimer = undefined;
    let stderr = "";
    const started = spawn("logger", args, { stdio: ["pipe", "ignore", "pipe"] });
    child = started;
    started.stdin!.on("error", () => {}); // EPIPE when logger has gone: the exit handler says why.
    started.stderr!.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-500)));
    started.once("error", (error: NodeJS.ErrnoException) => {
      child = undefined;
      const why = error.code === "ENOENT" ? "the logger program (util-linux) is not installed" : error.message;
      options.logger.warn(`Cannot send the log to syslog: ${why}; the log goes to stderr only`);
      closed = true; // nothing to retry without the program
    });
    started.once("exit", (code) => {
      if (child === started) child = undefined;
      if (closed) return;
      if (!failing) {
        failing = true;
        const why = stderr.trim().replace(/^logger: /, "") || `logger exited with code ${code}`;
        options.logger.warn(`Cannot send the log to syslog: ${why}; lines are dropped until the receiver is back (retrying)`);
      }
      restartTimer = setTimeout(start, restartMs);
      restartTimer.unref?.();
      restartMs = Math.min(restartMs * 2, RESTART_MAX_MS);
    });
    started.once("spawn", () => {
      // A logger that lasts a moment has connected; a missing socket ends it at once.
      const settled = setTimeout(() => {
        if (child !== started || !failing) return;
        failing = false;
        restartMs = RESTART_FIRST_MS;
        options.logger.info(`the log goes to syslog again${dropped > 0 ? `; ${dropped} lines were not sent meanwhile` : ""}`);
        dropped = 0;
      }, 500);
      settled.unref?.();
    });
  };
  start();

  return {
    write(line) {
      const input = child?.stdin;
      if (closed || !input || input.destroyed || failing) {
        dropped++;
        return;
      }
      if (input.writableLength > MAX_PENDING_BYTES) {
        if (!stalled) options.logger.warn("the syslog receiver is not keeping up: lines are dropped until it does");
        stalled = true;
        dropped++;
        return;
      }
      if (stalled) {
        stalled = false;
        options.logger.info(`the syslog receiver caught up; ${dropped} lines were not sent meanwhile`);
        dropped = 0;
      }
      input.write(`${line.replace(/\r?\n/g, " ")}\n`);
    },
    close() {
      closed = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = child;
      if (!running || running.exitCode !== null) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          running.kill();
          resolve();
        }, CLOSE_WAIT_MS);
        running.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        running.stdin!.end();
      });
    },
  };
}
