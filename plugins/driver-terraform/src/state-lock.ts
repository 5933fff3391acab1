/**
 * @module Recognising a held Terraform state lock in a command's output, and naming its holder.
 *
 * Terraform's `-lock-timeout` alone does not wait on Consul: the Consul backend locks a named
 * workspace once more while loading it ("failed to lock state in Consul"), a single try that ignores
 * the timeout. So the driver also retries such a command itself, until lock_timeout has passed.
 */

export interface StateLockInfo {
  readonly id?: string;
  readonly path?: string;
  readonly who?: string;
  readonly operation?: string;
  readonly created?: string;
}

/** Consul's load-time lock, and the lock every backend takes for an operation (after -lock-timeout). */
const LOCK_ERROR = /failed to lock state in Consul|Error acquiring the state lock|Error locking state/i;

/** The lock's details when `output` says the state is locked by someone else, else undefined. */
export function stateLockError(output: string): StateLockInfo | undefined {
  if (!LOCK_ERROR.test(output)) return undefined;
  const field = (name: string) => output.match(new RegExp(`^[│\\s]*${name}:[ \\t]*(.+)$`, "m"))?.[1]?.trim() || undefined;
  const info = { id: field("ID"), path: field("Path"), who: field("Who"), operation: field("Operation"), created: field("Created") };
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined)) as StateLockInfo;
}

/** `lock ID x, path p, held by who (operation since created)`, leaving out what Terraform did not say. */
export function describeLock(lock: StateLockInfo): string {
  const parts = [
    lock.id && `lock ID ${lock.id}`,
    lock.path && `path ${lock.path}`,
    lock.who && `held by ${lock.who}`,
    lock.operation && `operation ${lock.operation}`,
    lock.created && `since ${lock.created}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "no lock details in Terraform's output";
}

/** Pause before retry n (1-based): 0.5 s doubling to 5 s, short enough to follow a lock's release closely. */
export function lockRetryDelayMs(retry: number): number {
  return Math.min(5000, 500 * 2 ** (retry - 1));
}
