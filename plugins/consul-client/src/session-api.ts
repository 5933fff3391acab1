/** @module Typed session calls: create, renew, destroy, info. */
import type { SessionInfo, SessionOptions } from "../../../core/plugin-api/mod.ts";
import type { ConsulCall } from "./consul-call.ts";

interface RawSession {
  ID: string;
  Name?: string;
  Node?: string;
  TTL?: string;
  Behavior?: string;
}

export class SessionApi {
  readonly #call: ConsulCall;

  constructor(call: ConsulCall) {
    this.#call = call;
  }

  async create(options: SessionOptions): Promise<string> {
    const body: Record<string, unknown> = {};
    if (options.name !== undefined) body.Name = options.name;
    if (options.ttl !== undefined) body.TTL = options.ttl;
    if (options.behavior !== undefined) body.Behavior = options.behavior;
    if (options.lockDelay !== undefined) body.LockDelay = options.lockDelay;
    if (options.node !== undefined) body.Node = options.node;
    // An explicit [] must be sent: its presence removes the default serfHealth check.
    if (options.checks !== undefined) body.Checks = [...options.checks];
    const response = await this.#call.send(`create session${options.name ? ` "${options.name}"` : ""}`, {
      method: "PUT", path: "/v1/session/create", body,
    });
    return (JSON.parse(response.text) as { ID: string }).ID;
  }

  async renew(id: string): Promise<boolean> {
    const response = await this.#call.send(`renew session "${id}"`, {
      method: "PUT", path: `/v1/session/renew/${encodeURIComponent(id)}`,
    }, [404]);
    return response.status !== 404;
  }

  async destroy(id: string): Promise<void> {
    await this.#call.send(`destroy session "${id}"`, {
      method: "PUT", path: `/v1/session/destroy/${encodeURIComponent(id)}`,
    });
  }

  async info(id: string): Promise<SessionInfo | undefined> {
    const response = await this.#call.send(`read session "${id}"`, {
      method: "GET", path: `/v1/session/info/${encodeURIComponent(id)}`,
    }, [404]);
    if (response.status === 404 || response.text.trim() === "") return undefined;
    const session = (JSON.parse(response.text) as RawSession[] | null)?.[0];
    if (!session) return undefined;
    return Object.freeze({
      id: session.ID,
      name: session.Name ?? "",
      node: session.Node ?? "",
      ttl: session.TTL ?? "",
      behavior: session.Behavior ?? "",
    });
  }
}
