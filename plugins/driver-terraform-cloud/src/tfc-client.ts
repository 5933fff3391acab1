/**
 * @module The one HTTP client of a driver block: every API call, upload and log read goes through
 * it, so the `tls` block applies everywhere (CTS GH-795). API calls spend the block's shared
 * request budget (request-budget.ts), each task in its turn (`forOwner`). 429 waits for
 * `X-RateLimit-Reset`, 5xx and transport failures back off exponentially; any other 4xx fails at
 * once with HCP Terraform's own error text. The token goes in one header and is scrubbed from
 * anything that could be shown.
 */
import stripAnsi from "strip-ansi";
import { CtsError, type HttpClient, type HttpClientResponse, type Logger, type SecretMasker, sleep } from "../../../core/plugin-api/mod.ts";
import { RequestBudget } from "./request-budget.ts";
import { isPermanentTransportFailure, transportFailureText } from "./transport-failure.ts";

export interface TfcClientOptions {
  /** Origin, e.g. `https://app.terraform.io`. */
  readonly hostname: string;
  readonly token: string;
  readonly http: HttpClient;
  readonly logger: Logger;
  /** The daemon's secrets, masked in run logs as they are read. @default none */
  readonly secrets?: Pick<SecretMasker, "mask">;
  /** Attempts per request before giving up on 429/5xx. @default 8 */
  readonly maxAttempts?: number;
  /** First backoff; doubles each retry up to 10 s. @default 250 */
  readonly baseDelayMs?: number;
  /** The shared budget (tests give one with another limit). @default HCP Terraform's 30 a second */
  readonly budget?: RequestBudget;
}

/** A JSON:API resource as HCP Terraform returns it. */
export interface Resource {
  readonly id: string;
  readonly type: string;
  readonly attributes: Record<string, any>;
  readonly relationships?: Record<string, { data?: { id: string; type: string } | null | { id: string; type: string }[] }>;
  readonly links?: Record<string, string>;
}

export interface Document {
  readonly data: Resource | Resource[];
  readonly included?: Resource[];
  readonly meta?: Record<string, any>;
}

export class TfcApiError extends CtsError {
  readonly status: number;
  constructor(status: number, message: string) {
    super("CTS_ERR_DRIVER", message);
    this.status = status;
  }
}

export interface ApiCallOptions {
  readonly allow404?: boolean;
  readonly signal?: AbortSignal;
  /** Say each retry at WARN (start-up: the daemon waits for this answer). */
  readonly loud?: boolean;
}

const MAX_DELAY_MS = 10_000;
/** 429s a request rides out (go-tfe's retry count); each waits for the reset, so they cost no attempt. */
const MAX_THROTTLED = 30;
const decoder = new TextDecoder();

/** What every owner's view of one client shares: the budget and the counters. */
interface Shared {
  readonly options: TfcClientOptions;
  readonly budget: RequestBudget;
  requests: number;
  readonly requestCounts: Map<string, number>;
}

export class TfcClient {
  readonly #shared: Shared;
  readonly #owner: string;

  constructor(options: TfcClientOptions, owner = "driver", shared?: Shared) {
    this.#shared = shared ?? { options, budget: options.budget ?? new RequestBudget(), requests: 0, requestCounts: new Map() };
    this.#owner = owner;
  }

  /** The same client, spending the budget in `owner`'s turn (one owner per task). */
  forOwner(owner: string): TfcClient {
    return new TfcClient(this.#shared.options, owner, this.#shared);
  }

  get hostname(): string {
    return this.#shared.options.hostname;
  }

  get budget(): RequestBudget {
    return this.#shared.budget;
  }

  /** How many requests were sent (tests and benches read it). */
  get requests(): number {
    return this.#shared.requests;
  }

  /** Requests sent per `METHOD /path` with ids replaced by `:id` (tests and benches read it). */
  get requestCounts(): ReadonlyMap<string, number> {
    return this.#shared.requestCounts;
  }

  /** Replaces the token wherever it could appear in a message. */
  scrub(text: string): string {
    const { token } = this.#shared.options;
    return token ? text.split(token).join("<redacted>") : text;
  }

  /** A run log as the daemon may keep it: no colour codes, every known secret (the token too) masked. */
  cleanLog(text: string): string {
    const plain = this.scrub(stripAnsi(text));
    const { secrets } = this.#shared.options;
    return secrets ? secrets.mask(plain) : plain;
  }

  /** An API call under /api/v2; `what` completes "Cannot <what>". Resolves undefined for 404 when allowed. */
  async api(what: string, method: string, path: string, body?: unknown, options: ApiCallOptions = {}): Promise<Document | undefined> {
    const { hostname, token } = this.#shared.options;
    const response = await this.#send(what, {
      method,
      url: `${hostname}/api/v2${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/vnd.api+json",
        accept: "application/vnd.api+json",
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }, options, true);
    if (response.status === 404 && options.allow404) return undefined;
    const text = decoder.decode(response.body);
    if (response.status >= 400) throw this.#failure(what, response.status, text);
    if (text === "") return undefined;
    return JSON.parse(text) as Document;
  }

  /**
   * A GET under /api/v2 that answers plain JSON (a plan's JSON): HCP Terraform redirects it to a
   * short-lived archivist URL, followed once. Undefined for a 404 (not kept, or no permission to read it).
   */
  async apiText(what: string, path: string, signal?: AbortSignal): Promise<string | undefined> {
    const { hostname, token } = this.#shared.options;
    const url = `${hostname}/api/v2${path}`;
    const response = await this.#send(what, { method: "GET", url, headers: { authorization: `Bearer ${token}` } }, { signal }, true);
    if (response.status === 404) return undefined;
    const location = response.headers["location"];
    if (response.status >= 300 && response.status < 400 && location) return await this.getText(what, new URL(location, url).href, signal);
    if (response.status >= 300) throw this.#failure(what, response.status, decoder.decode(response.body));
    return decoder.decode(response.body);
  }

  /** The configuration upload: a PUT of bytes to the URL the API handed out (no token: it is pre-signed). */
  async upload(what: string, url: string, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
    const response = await this.#send(what, { method: "PUT", url, headers: { "content-type": "application/octet-stream" }, body: bytes }, { signal }, false);
    if (response.status >= 400) throw this.#failure(what, response.status, decoder.decode(response.body));
  }

  /** A plain GET of a pre-signed URL (plan and apply logs), as bytes. */
  async getBytes(what: string, url: string, signal?: AbortSignal): Promise<Uint8Array> {
    const response = await this.#send(what, { method: "GET", url }, { signal }, false);
    if (response.status >= 400) throw this.#failure(what, response.status, decoder.decode(response.body));
    return response.body;
  }

  /** A plain GET of a pre-signed URL (a state download), as text. */
  async getText(what: string, url: string, signal?: AbortSignal): Promise<string> {
    return decoder.decode(await this.getBytes(what, url, signal));
  }

  async #send(
    what: string,
    request: { method: string; url: string; headers?: Record<string, string>; body?: string | Uint8Array },
    options: ApiCallOptions,
    budgeted: boolean,
  ): Promise<HttpClientResponse> {
    const shared = this.#shared;
    const { signal } = options;
    const attempts = shared.options.maxAttempts ?? 8;
    let delay = shared.options.baseDelayMs ?? 250;
    const path = new URL(request.url).pathname;
    const kind = `${request.method} ${path.replace(/\/(ws|run|cv|var|plan|apply|sv|org|apool)-[A-Za-z0-9]+/g, "/:id").replace(/\/_archivist\/.*/, "/<upload>")}`;
    let throttled = 0;
    for (let attempt = 1; ; attempt++) {
      let wait: number;
      let reason: string;
      let sent = false;
      try {
        if (budgeted) await shared.budget.take(this.#owner, signal);
        sent = budgeted;
        shared.requests++;
        shared.requestCounts.set(kind, (shared.requestCounts.get(kind) ?? 0) + 1);
        const response = await shared.options.http.request({ ...request, ...(signal ? { signal } : {}), timeoutMs: 60_000 });
        sent = false;
        if (budgeted) shared.budget.noteAnswer(response.status, response.headers);
        if (response.status !== 429 && response.status < 500) return response;
        if (response.status === 429 && ++throttled <= MAX_THROTTLED) attempt--;
        if (attempt >= attempts) return response;
        // A 429 waits in the budget (paused until X-RateLimit-Reset) for its next turn.
        wait = response.status === 429 ? 0 : delay;
        reason = `HTTP ${response.status}`;
      } catch (error) {
        if (sent) shared.budget.noteNoAnswer();
        if (signal?.aborted || attempt >= attempts || isPermanentTransportFailure(error)) {
          throw new CtsError("CTS_ERR_DRIVER", `Cannot ${what}: ${this.scrub(transportFailureText(error))}`);
        }
        wait = delay;
        reason = this.scrub(transportFailureText(error));
      }
      const fields = { method: request.method, path, reason, attempt, wait_ms: wait };
      if (options.loud) shared.options.logger.warn("request to HCP Terraform failed, retrying", { ...fields, retries_left: attempts - attempt });
      else shared.options.logger.debug("request to HCP Terraform failed, retrying", fields);
      await sleep(Math.min(wait, MAX_DELAY_MS), signal);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }

  #failure(what: string, status: number, body: string): TfcApiError {
    return new TfcApiError(status, `Cannot ${what}: HCP Terraform answered ${status}: ${this.scrub(errorText(body))}`);
  }
}

/** `{"errors":[{"title","detail"}]}` → "title: detail; ...", else the raw text (shortened). */
export function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { errors?: ({ title?: string; detail?: string } | string)[] };
    if (Array.isArray(parsed.errors) && parsed.errors.length > 0) {
      return parsed.errors.map((error) => typeof error === "string"
        ? error
        : [error.title, error.detail].filter((part) => part !== undefined && part !== "").join(": ")).join("; ");
    }
  } catch {
    // not JSON: fall through to the text itself
  }
  const trimmed = body.trim();
  return trimmed === "" ? "(no body)" : trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
}
