/**
 * @module One notification's delivery: POST, signed afresh per attempt, retried with capped
 * exponential backoff (half fixed, half random, so many daemons do not retry in step) on transport
 * errors, timeouts, 408, 429 and 5xx; any other status is the receiver's final answer. A 429's or
 * 503's `Retry-After` (seconds) is honoured up to the maximum backoff. Sent with `fetch`, whose
 * answer body is cancelled unread (a receiver cannot make the daemon buffer a huge answer) and
 * whose redirects are not followed (a 3xx is the receiver's answer, not a new destination).
 */
import { errorMessage, sleep, type Logger, type SecretMasker } from "../../../core/plugin-api/mod.ts";
import type { DeliveryMetrics } from "./delivery-metrics.ts";
import type { DeliverySettings, Destination } from "./notifier-options.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./webhook-signature.ts";

export interface Delivery {
  readonly task: string;
  readonly runId: string;
  readonly deliveryId: string;
  readonly destination: Destination;
  readonly body: string;
}

export interface SenderDeps {
  readonly settings: DeliverySettings;
  readonly logger: Logger;
  readonly masker: SecretMasker;
  readonly metrics: DeliveryMetrics;
  readonly userAgent: string;
  /** Aborted when the daemon stops for good (after the drain). */
  readonly signal: AbortSignal;
}

const retryable = (status: number): boolean => status === 408 || status === 429 || status >= 500;

function backoffMs(attempt: number, settings: DeliverySettings, retryAfter: string | undefined): number {
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : undefined;
  if (seconds !== undefined) return Math.min(seconds, settings.maxBackoffMs);
  const full = Math.min(settings.maxBackoffMs, settings.initialBackoffMs * 2 ** (attempt - 1));
  return full / 2 + Math.random() * (full / 2);
}

/** Sends `delivery`; resolves with whether the receiver accepted it (never rejects). */
export async function send(delivery: Delivery, deps: SenderDeps): Promise<boolean> {
  const { settings, logger, masker, metrics } = deps;
  const where = { task: delivery.task, run_id: delivery.runId, delivery_id: delivery.deliveryId };
  for (let attempt = 1; attempt <= settings.attempts && !deps.signal.aborted; attempt++) {
    let problem: string;
    let retryAfter: string | undefined;
    let again = true;
    try {
      const headers: Record<string, string> = {
        ...delivery.destination.headers,
        "content-type": "application/json",
        "user-agent": deps.userAgent,
        "x-cts-event": "run.ended",
        "x-cts-delivery": delivery.deliveryId,
      };
      if (delivery.destination.secret !== "") {
        headers[SIGNATURE_HEADER] = await signatureHeader(delivery.destination.secret, delivery.body, Date.now());
      }
      const response = await fetch(delivery.destination.url, {
        method: "POST", headers, body: delivery.body, redirect: "manual",
        signal: AbortSignal.any([deps.signal, AbortSignal.timeout(settings.timeoutMs)]),
      });
      await response.body?.cancel().catch(() => {});
      if (response.status >= 200 && response.status < 300) {
        metrics.attempt(true);
        logger.info("notification delivered", { ...where, status: response.status, attempts: attempt });
        return true;
      }
      metrics.attempt(false);
      problem = `HTTP ${response.status}`;
      retryAfter = response.headers.get("retry-after") ?? undefined;
      again = retryable(response.status);
    } catch (error) {
      metrics.attempt(false);
      problem = masker.mask(errorMessage(error));
    }
    if (!again || attempt === settings.attempts) {
      logger.warn("notification not delivered", { ...where, attempts: attempt, error: problem });
      return false;
    }
    const wait = backoffMs(attempt, settings, retryAfter);
    logger.debug("notification attempt failed, retrying", { ...where, attempt, error: problem, retry_in_ms: Math.round(wait) });
    await sleep(wait, deps.signal);
  }
  logger.warn("notification not delivered: the daemon stopped", where);
  return false;
}
