/**
 * @module Test harness for the HA plugin: the embedded Consul server with a low session TTL minimum,
 * real Consul clients, LeaderElection instances on one cluster, and a polling `until`.
 */
import type { HighAvailabilityConfig } from "../../core/plugin-api/mod.ts";
import type { ClosableConsulClient } from "../../plugins/consul-client/mod.ts";
import { kvLayoutOf, type KvLayout } from "../../plugins/ha-consul/src/kv-layout.ts";
import { LeaderElection } from "../../plugins/ha-consul/src/leader-election.ts";
import { startConsulDevServer, type TestConsulDevServer } from "../consul-dev-server.ts";
import { until as pollUntil } from "../until.ts";
import { type CaptureLogger, createCaptureLogger } from "../consul-client/capture-logger.ts";
import { testClient } from "../consul-client/client-options.ts";

/**
 * One request to the embedded Consul's HTTP API as a test sets up state by hand (a session, a check,
 * a key); a non-2xx answer throws with its text. Resolves to the JSON answer (undefined for the
 * agent endpoints that answer with an empty body).
 */
export async function consulRequest(consul: { readonly url: string }, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${consul.url}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === "" ? undefined : JSON.parse(text);
}

/** Session TTL used by the election tests: low so a lost session is noticed quickly. */
export const TEST_TTL_MS = 1000;

export function startHaConsul(): Promise<TestConsulDevServer> {
  return startConsulDevServer({ sessionTtlMinMs: 100 });
}

export function haConfig(cluster: string, overrides: { address?: string; ttlMs?: number; parentPath?: string } = {}): HighAvailabilityConfig {
  return {
    cluster: {
      name: cluster,
      storage: { parent_path: overrides.parentPath ?? "consul-terraform-sync/", namespace: "", session_ttl: overrides.ttlMs ?? TEST_TTL_MS },
    },
    instance: { address: overrides.address ?? "" },
  };
}

export interface Member {
  readonly id: string;
  readonly election: LeaderElection;
  readonly client: ClosableConsulClient;
  readonly logger: CaptureLogger;
  /** Every leadership change this member reported, in order. */
  readonly changes: boolean[];
}

export async function startMember(
  consul: TestConsulDevServer, cluster: string, id: string, address = "", bind: { checkId?: string; ttlMs?: number; checkTrustedFrom?: number } = {},
): Promise<Member> {
  const { client } = await testClient(consul.address);
  const logger = createCaptureLogger("ha");
  const ha = haConfig(cluster, { address, ...(bind.ttlMs ? { ttlMs: bind.ttlMs } : {}) });
  const election = new LeaderElection({
    consul: client,
    layout: kvLayoutOf(ha),
    clusterName: cluster,
    instanceId: id,
    ...(address ? { address } : {}),
    sessionTtlMs: ha.cluster.storage.session_ttl,
    ...(bind.checkId ? { checkId: bind.checkId } : {}),
    ...(bind.checkTrustedFrom !== undefined ? { checkTrustedFrom: bind.checkTrustedFrom } : {}),
    logger,
  });
  const changes: boolean[] = [];
  election.subscribe((isLeader) => changes.push(isLeader));
  election.start();
  return { id, election, client, logger, changes };
}

export async function stopMember(member: Member): Promise<void> {
  await member.election.stop();
  member.client.close();
}

export function layoutOf(cluster: string): KvLayout {
  return kvLayoutOf(haConfig(cluster));
}

/** Polls `probe` every 20 ms until it returns something other than undefined (gives up after `limitMs`). */
export function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, limitMs = 10_000): Promise<T> {
  return pollUntil(what, probe, limitMs, 20);
}

/** The members that currently consider themselves leader. */
export function leaders(members: readonly Member[]): Member[] {
  return members.filter((member) => member.election.isLeader());
}

/** Waits until exactly one member leads and every member names it as leader. */
export function settledLeader(members: readonly Member[]): Promise<Member> {
  return until("one agreed leader", () => {
    const current = leaders(members);
    if (current.length !== 1) return undefined;
    const leader = current[0]!;
    return members.every((member) => member.election.leader()?.id === leader.id) ? leader : undefined;
  });
}
