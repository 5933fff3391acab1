/** @module The always-leader Leadership plugin (used when `high_availability` is not configured). */
import { configToken, defineService, definePlugin, leadershipToken } from "../../core/plugin-api/mod.ts";
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
  deps: {},
});
