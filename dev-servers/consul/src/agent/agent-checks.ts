/**
 * @module The local agent's active checks: TTL checks expire to critical unless updated, HTTP checks
 * are really requested every Interval (2xx passing, 429 warning, else critical), and services whose
 * check stays critical past DeregisterCriticalServiceAfter are reaped.
 */
import { notFound, serverError } from "../api-error.ts";
import { parseGoDuration } from "../go-duration.ts";
import type { ConsulState } from "../state/consul-state.ts";
import type { CheckStatus, HealthCheck } from "../state/types.ts";

const REAP_EVERY_MS = 30_000;

export interface ActiveCheckSpec {
  readonly checkId: string;
  readonly ttl: string;
  readonly http: string;
  readonly method: string;
  readonly header: Readonly<Record<string, readonly string[]>> | null;
  readonly body: string;
  readonly interval: string;
  readonly timeout: string;
  readonly deregisterCriticalServiceAfter: string;
}

interface Active {
  readonly spec: ActiveCheckSpec;
  timer: ReturnType<typeof setTimeout> | undefined;
  criticalSince: number | undefined;
}

const ms = (text: string): number => (parseGoDuration(text) ?? 0) / 1e6;

export class AgentChecks {
  readonly #state: ConsulState;
  readonly #active = new Map<string, Active>();
  readonly #reaper: ReturnType<typeof setInterval>;
  #closed = false;

  constructor(state: ConsulState) {
    this.#state = state;
    this.#reaper = setInterval(() => this.#reap(), REAP_EVERY_MS);
  }

  /** Starts (or restarts) the timers for a check already stored in the catalog. */
  activate(spec: ActiveCheckSpec): void {
    this.deactivate(spec.checkId);
    const active: Active = { spec, timer: undefined, criticalSince: undefined };
    this.#active.set(spec.checkId, active);
    if (spec.ttl) this.#armTtl(active);
    else if (spec.http) this.#scheduleHttp(active, 0);
  }

  /** Specs of every active check (for the snapshot). */
  specs(): ActiveCheckSpec[] {
    return [...this.#active.values()].map((active) => active.spec);
  }

  deactivate(checkId: string): void {
    const active = this.#active.get(checkId);
    if (active) clearTimeout(active.timer);
    this.#active.delete(checkId);
  }

  /** /agent/check/pass|warn|fail|update: sets status and resets the TTL timer. */
  updateTtl(checkId: string, status: CheckStatus, output: string): void {
    const check = this.#state.catalog.getCheck(this.#state.nodeName, checkId);
    if (!check) {
      throw notFound(`Unknown check ID "${checkId}". Ensure that the check ID is passed, not the check name.`);
    }
    const active = this.#active.get(checkId);
    if (!active?.spec.ttl) throw serverError(`CheckID "${checkId}" does not have associated TTL`);
    this.#setStatus(active, status, output);
    this.#armTtl(active);
  }

  #setStatus(active: Active, status: CheckStatus, output: string): void {
    if (status === "critical") active.criticalSince ??= Date.now();
    else active.criticalSince = undefined;
    this.#state.write((tx) => this.#state.setCheckStatus(tx, this.#state.nodeName, active.spec.checkId, status, output));
  }

  #armTtl(active: Active): void {
    clearTimeout(active.timer);
    if (this.#closed) return;
    active.timer = setTimeout(() => {
      const last = this.#state.catalog.getCheck(this.#state.nodeName, active.spec.checkId)?.output ?? "";
      const output = last ? `TTL expired (last output before timeout follows): ${last}` : "TTL expired";
      this.#setStatus(active, "critical", output);
    }, ms(active.spec.ttl));
  }

  #scheduleHttp(active: Active, delayMs: number): void {
    if (this.#closed) return;
    active.timer = setTimeout(() => void this.#runHttp(active), delayMs);
  }

  async #runHttp(active: Active): Promise<void> {
    const { spec } = active;
    const method = spec.method || "GET";
    let status: CheckStatus;
    let output: string;
    try {
      const headers = new Headers();
      for (const [name, values] of Object.entries(spec.header ?? {})) for (const v of values) headers.append(name, v);
      const response = await fetch(spec.http, {
        method,
        headers,
        ...(spec.body && method !== "GET" ? { body: spec.body } : {}),
        signal: AbortSignal.timeout(ms(spec.timeout) || 10_000),
      });
      const body = (await response.text()).slice(0, 4096);
      status = response.ok ? "passing" : response.status === 429 ? "warning" : "critical";
      output = `HTTP ${method} ${spec.http}: ${response.status} ${response.statusText} Output: ${body}`;
    } catch (error) {
      status = "critical";
      output = `Get "${spec.http}": ${error instanceof Error ? error.message : String(error)}`;
    }
    if (this.#closed || this.#active.get(spec.checkId) !== active) return;
    this.#setStatus(active, status, output);
    this.#scheduleHttp(active, ms(spec.interval) || 10_000);
  }

  #reap(): void {
    const now = Date.now();
    for (const active of [...this.#active.values()]) {
      const limit = ms(active.spec.deregisterCriticalServiceAfter);
      if (!limit || active.criticalSince === undefined || now - active.criticalSince < limit) continue;
      const check: HealthCheck | undefined = this.#state.catalog.getCheck(this.#state.nodeName, active.spec.checkId);
      if (!check?.serviceId) continue;
      this.deregisterService(check.serviceId);
    }
  }

  /** Removes a local service, its checks and their timers. */
  deregisterService(serviceId: string): void {
    for (const check of this.#state.catalog.nodeChecks(this.#state.nodeName)) {
      if (check.serviceId === serviceId) this.deactivate(check.checkId);
    }
    this.#state.write((tx) => this.#state.deleteService(tx, this.#state.nodeName, serviceId));
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#reaper);
    // The specs stay readable: the final snapshot at stop still records them.
    for (const active of this.#active.values()) clearTimeout(active.timer);
  }
}
