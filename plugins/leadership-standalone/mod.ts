/** @module The always-leader Leadership plugin (used when `high_availability` is not configured). */
import { configToken, daemonEventsToken, defineService, definePlugin, leadershipToken } from "../../core/plugin-api/mod.ts";
import { StandaloneLeadership } from "./src/standalone-leadership.ts";

export { StandaloneLeadership } from "./src/standalone-leadership.ts";

export default definePlugin({
  id: "leadership-standalone",
  kind: "service",
  description: "This instance always leads (no high availability)",
  provides: [defineService({
    token: leadershipToken,
    deps: { config: configToken },
    create: ({ config }) => new StandaloneLeadership(config.id || "cts"),
  })],
  deps: { events: daemonEventsToken, leadership: leadershipToken },
  init({ events, leadership }, { lifecycle }) {
    // Once, so the event stream and the status page say who leads as they do with HA.
    lifecycle.onStart(() => {
      events.publish({ type: "leadership", instance_id: leadership.instanceId, is_leader: true, leader: { id: leadership.instanceId } });
    });
  },
});
