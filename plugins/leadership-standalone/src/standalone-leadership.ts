/** @module Leadership without a cluster: this instance always leads and never steps down. */
import type { LeaderInfo, Leadership } from "../../../core/plugin-api/mod.ts";

export class StandaloneLeadership implements Leadership {
  readonly instanceId: string;

  constructor(instanceId: string) {
    this.instanceId = instanceId;
  }

  isLeader(): boolean {
    return true;
  }

  /** Never calls back: leadership never changes. */
  subscribe(_listener: (isLeader: boolean) => void): () => void {
    return () => {};
  }

  leader(): LeaderInfo {
    return { id: this.instanceId };
  }
}
