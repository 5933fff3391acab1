/**
 * @module Holds scheduled runs back until the engine's start-up pass has run every task once.
 *
 * CTS starts the timers of scheduled tasks only after its once phase (controller/daemon.go runs
 * Once, then the condition monitor that starts them), so no scheduled run lands between a task's
 * start-up run and the moment every task has run once; CTS's e2e tests count on one event at that
 * point. Our schedule sources start with their task, so the engine drops their ticks until then.
 */
export class ScheduleGate {
  // Open unless a start-up pass runs: an instance that never leads (shared HA) must still tick.
  #open = true;

  get isOpen(): boolean {
    return this.#open;
  }

  /** The start-up pass is done: scheduled ticks run tasks from now on. */
  open(): void {
    this.#open = true;
  }

  /** A (new) start-up pass begins. */
  close(): void {
    this.#open = false;
  }
}
