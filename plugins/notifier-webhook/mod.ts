/**
 * @module The webhook notifier (beyond CTS, CTS#309): when a run ends, POSTs a signed JSON body with
 * the run record (masked) to the configured URL — for every run, failures only, or changes of
 * result — with retries, from a bounded queue that never delays a run. Results go to the log and to
 * `GET /metrics`. Written against the contract alone, as a third party would write it.
 */
import {
  daemonEventsToken, definePlugin, environmentToken, errorMessage, loggerToken, metricsSourceRegistryToken,
  runtimeVersionToken, secretMaskerToken, type PluginContext, type RunRecord,
} from "../../core/plugin-api/mod.ts";
import { DeliveryMetrics } from "./src/delivery-metrics.ts";
import { DeliveryQueue } from "./src/delivery-queue.ts";
import { notificationOf, renderBody } from "./src/notification-body.ts";
import { deliverySettings, destinationResolver, notifierOptionsSchema, type NotifierOptions } from "./src/notifier-options.ts";
import { NotifyPolicy } from "./src/notify-policy.ts";
import { send } from "./src/webhook-sender.ts";

export { SIGNATURE_HEADER, signatureHeader } from "./src/webhook-signature.ts";
export { notifierOptionsSchema } from "./src/notifier-options.ts";
export type { NotifierOptions } from "./src/notifier-options.ts";
export type { Notification } from "./src/notification-body.ts";

export default definePlugin({
  id: "notifier-webhook",
  kind: "handler",
  logName: "notifier",
  description: "webhook notifications when task runs end (signed, retried, queued apart from runs)",
  optionsSchema: notifierOptionsSchema,
  deps: {
    events: daemonEventsToken,
    masker: secretMaskerToken,
    logger: loggerToken,
    metricsSources: metricsSourceRegistryToken,
    environment: environmentToken,
    version: runtimeVersionToken,
  },
  init({ events, masker, logger, metricsSources, environment, version }, ctx: PluginContext<NotifierOptions>) {
    const { destinationOf, destinations } = destinationResolver(ctx.options, environment);
    for (const destination of destinations) {
      // Chat webhook URLs are credentials themselves (Slack's, Teams'): never logged or served either.
      masker.add(destination.url, "notifier-webhook.url");
      masker.add(destination.secret, "notifier-webhook.secret");
      for (const [name, value] of Object.entries(destination.headers)) masker.add(value, `notifier-webhook.headers.${name}`);
    }
    const settings = deliverySettings(ctx.options);
    const metrics = new DeliveryMetrics();
    metricsSources.register(metrics);
    const stopping = new AbortController();
    const senderDeps = { settings, logger, masker, metrics, userAgent: `cts-runtime/${version}`, signal: stopping.signal };
    const queue = new DeliveryQueue(settings.queueSize, (delivery) => send(delivery, senderDeps), metrics, logger);
    const policy = new NotifyPolicy();

    const onRunEnded = (run: RunRecord): void => {
      const destination = destinationOf(run.task);
      const { notify, previous } = policy.decide(run, destination?.on ?? "never");
      if (!notify || destination === undefined) return;
      const notification = notificationOf(run, run.outcome === "failed" ? "failed" : "succeeded", previous, masker);
      queue.push({
        task: run.task, runId: run.id, deliveryId: notification.delivery_id, destination,
        body: renderBody(notification, destination.bodyTemplate, masker),
      });
    };
    const unsubscribe = events.subscribe((event) => {
      if (event.type !== "run.ended") return;
      try {
        onRunEnded(event.run);
      } catch (error) {
        // A notification problem must never reach the engine that published the event.
        logger.error("cannot queue a notification", { task: event.run.task, error: masker.mask(errorMessage(error)) });
      }
    });
    if (destinations.length === 0) logger.warn("no webhook url configured: no notification will be sent");
    if (destinations.some((destination) => destination.secret === "")) {
      logger.warn("a webhook has no secret: its requests are not signed");
    }
    ctx.lifecycle.onStop(async () => {
      unsubscribe();
      // Runs that ended just before the stop (a failed -once run) still get their notification.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([queue.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, settings.drainTimeoutMs)))]);
      clearTimeout(timer);
      if (queue.length > 0) logger.warn("stopping with notifications unsent", { pending: queue.length });
      stopping.abort();
    }, { timeoutMs: settings.drainTimeoutMs + 5_000 });
  },
});
