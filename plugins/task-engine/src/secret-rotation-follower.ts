/**
 * @module What a rotated secret does to tasks (daemon mode). A provider's Vault secret rotated:
 * exactly the tasks that use that provider get a new driver (which renders the new value) and run
 * once, forced, with the trigger `secret` naming the path, never the value; a rotation heard through
 * several providers of one task runs it once. The Consul credentials rotated: every prepared task
 * gets a new driver (the Terraform backend's CONSUL_HTTP_TOKEN), without a run.
 */
import {
  type ConsulClient, errorMessage, type Logger, type SecretRotation, type TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import type { Engine } from "./engine.ts";
import type { ProviderRotations } from "./provider-rotations.ts";
import type { TaskRuntime } from "./task-runtime.ts";

/** What the run record says: `secret rotated: secret/app (version 3)`; a path, never a value. */
export function rotationReason(rotation: SecretRotation): TriggerReason {
  const why = rotation.version !== undefined ? `version ${rotation.version}` : CAUSES[rotation.cause];
  return { kind: "secret", detail: `secret rotated: ${rotation.path} (${why})` };
}

const CAUSES: Readonly<Record<SecretRotation["cause"], string>> = {
  version: "new version", lease: "lease ended", ttl: "TTL ended", changed: "changed",
};

export function followSecretRotations(engine: Engine, rotations: ProviderRotations, consul: ConsulClient, logger: Logger): () => void {
  const ran = new WeakMap<SecretRotation, Set<string>>();
  const stopProviders = rotations.onRotated((providerId, rotation) => {
    const tasks = ran.get(rotation) ?? new Set<string>();
    ran.set(rotation, tasks);
    for (const runtime of engine.tasks.values()) {
      if (!runtime.config.providers.includes(providerId) || tasks.has(runtime.name)) continue;
      tasks.add(runtime.name);
      void engine.track(runAgain(runtime, rotationReason(rotation), logger));
    }
  });
  const stopConsul = consul.onCredentialsChange?.(() => {
    for (const runtime of engine.tasks.values()) {
      if (runtime.driver === undefined || runtime.deleting) continue;
      void engine.track(renewDriver(runtime, logger));
    }
  });
  return () => {
    stopProviders();
    stopConsul?.();
  };
}

async function runAgain(runtime: TaskRuntime, reason: TriggerReason, logger: Logger): Promise<void> {
  if (runtime.deleting) return;
  logger.info("a secret the task uses rotated, running it again", { task_name: runtime.name, detail: reason.detail! });
  try {
    await runtime.exclusive(() => runtime.prepare(true));
  } catch (error) {
    await runtime.recordFailure(reason, error);
    return;
  }
  // Not armed yet: its start-up run comes and uses the new driver.
  if (!runtime.armed || runtime.deleting) return;
  if (!runtime.config.enabled) {
    await runtime.recorder.skipped(reason, "disabled");
    return;
  }
  await runtime.request({ reason, force: true, retries: true });
}

async function renewDriver(runtime: TaskRuntime, logger: Logger): Promise<void> {
  try {
    await runtime.exclusive(() => runtime.prepare(true));
    logger.debug("the Consul credentials rotated: task driver renewed", { task_name: runtime.name });
  } catch (error) {
    logger.error("cannot renew the task's driver after the Consul credentials rotated", { task_name: runtime.name, error: errorMessage(error) });
  }
}
