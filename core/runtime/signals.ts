/** @module SIGINT/SIGTERM/SIGQUIT → one callback; wired by the CLI, never by the kernel. */
import process from "node:process";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGQUIT"] as const;

/** Calls `handler` with the signal name each time one arrives; returns a function that unhooks it. */
export function onShutdownSignal(handler: (signal: string) => void): () => void {
  const listeners = SIGNALS.map((signal) => {
    const listener = () => handler(signal);
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}

/** Resolves at the first shutdown signal. */
export function waitForShutdownSignal(): Promise<string> {
  return new Promise((resolve) => {
    const unhook = onShutdownSignal((signal) => {
      unhook();
      resolve(signal);
    });
  });
}

/** An AbortSignal aborted at the first shutdown signal, with the signal's name as its reason. */
export function shutdownAbortSignal(): AbortSignal {
  const controller = new AbortController();
  waitForShutdownSignal().then((signal) => controller.abort(signal), () => {});
  return controller.signal;
}
