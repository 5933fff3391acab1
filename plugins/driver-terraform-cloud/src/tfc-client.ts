/**
 * @module The one HTTP client of the driver: every API call, upload and log read goes through it,
 * so the `tls` block applies everywhere (CTS GH-795). 429 waits for `X-RateLimit-Reset`, 5xx and
 * transport failures back off exponentially; any other 4xx fails at once with HCP Terraform's own
 * error text. The token goes in one header and is scrubbed from anything that could be shown.
 */
import { CtsError, errorMessage, type HttpClient, type Logger, sleep } from "../../../core/plugin-api/mod.ts";

export interface TfcClientOptions {
  /** Origin, e.g. `https://app.terraform.io`. */
  readonly hostname: string;
  readonly token: string;
  readonly http: HttpClient;
  readonly logger: Logger;
  /** Attempts per request before giving up on 429/5xx. @default 8 */
  readonly maxAttempts?: number;
  /** First backoff; doubles each retry up to 10 s. @default 250 */
  readonly baseDelayMs?: number;
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

const MAX_DELAY_MS = 10_000;
const decoder = new TextDecoder();

export class TfcClient {
  readonly #options: TfcClientOptions;
  /** How many requests were sent (tests and benches read it). */
  requests = 0;
  /** Requests sent per `METHOD /path` with ids replaced by `:id` (tests and benches read it). */
  readonly requestCounts = new Map<string, number>();

  constructor(options: TfcClientOptions) {
    this.#options = options;
  }

  get hostname(): string {
    return this.#options.hostname;
  }

  /** Replaces the token wherever it could appear in a message. */
  scrub(text: string): string {
    return this.#options.token ? text.split(this.#options.token).join("<redacted>") : text;
  }

  /** An API call under /api/v2; `what` completes "Cannot <what>". Resolves undefined for 404 when allowed. */
  async api(what: string, method: string, path: string, body?: unknown, options: { allow404?: boolean; signal?: AbortSignal } = {}): Promise<Document | undefined> {
    const response = await this.#send(what, {
      method,
      url: `${this.#options.hostname}/api/v2${path}`,
      headers: {
        authorization: `Bearer ${this.#options.token}`,
        "content-type": "application/vnd.api+json",
        accept: "application/vnd.api+json",
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }, options.signal);
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
    const url = `${this.#options.hostname}/api/v2${path}`;
    const response = await this.#send(what, { method: "GET", url, headers: { authorization: `Bearer ${this.#options.token}` } }, signal);
    if (response.status === 404) return undefined;
    const location = response.headers["location"];
    if (response.status >= 300 && response.status < 400 && location) return await this.getText(what, new URL(location, url).href, signal);
    if (response.status >= 300) throw this.#failure(what, response.status, decoder.decode(response.body));
    return decoder.decode(response.body);
  }

  /** The configuration upload: a PUT of bytes to the URL the API handed out (no token: it is pre-signed). */
  async upload(what: string, url: string, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
    const response = await this.#send(what, { method: "PUT", url, headers: { "content-type": "application/octet-stream" }, body: bytes }, signal);
    if (response.status >= 400) throw this.#failure(what, response.status, decoder.decode(response.body));
  }

  /** A plain GET of a pre-signed URL (plan and apply logs). */
  async getText(what: string, url: string, signal?: AbortSignal): Promise<string> {
    const response = await this.#send(what, { method: "GET", url }, signal);
    if (response.status >= 400) throw this.#failure(what, response.status, decoder.decode(response.body));
    return decoder.decode(response.body);
  }

  async #send(
    what: string,
    request: { method: string; url: string; headers?: Record<string, string>; body?: string | Uint8Array },
    signal?: AbortSignal,
  ) {
    const attempts = this.#options.maxAttempts ?? 8;
    let delay = this.#options.baseDelayMs ?? 250;
    const kind = `${request.method} ${new URL(request.url).pathname.replace(/\/(ws|run|cv|var|plan|apply|sv|org|apool)-[A-Za-z0-9]+/g, "/:id").replace(/\/_archivist\/.*/, "/<upload>")}`;
    for (let attempt = 1; ; attempt++) {
      this.requests++;
      this.requestCounts.set(kind, (this.requestCounts.get(kind) ?? 0) + 1);
      let wait: number;
      let reason: string;
      try {
        const response = await this.#options.http.request({ ...request, ...(signal ? { signal } : {}), timeoutMs: 60_000 });
        if (response.status !== 429 && response.status < 500) return response;
        if (attempt >= attempts) return response;
        const reset = Number(response.headers["x-ratelimit-reset"]);
        // TFC's reset is seconds until the window reopens; waiting for it beats blind backoff.
        wait = response.status === 429 && Number.isFinite(reset) && reset >= 0 ? Math.ceil(reset * 1000) + 50 : delay;
        reason = `HTTP ${response.status}`;
      } catch (error) {
        if (signal?.aborted || attempt >= attempts || isPermanent(error)) {
          throw new CtsError("CTS_ERR_DRIVER", `Cannot ${what}: ${this.scrub(errorMessage(error))}`);
        }
        wait = delay;
        reason = this.scrub(errorMessage(error));
      }
      this.#options.logger.debug("request to HCP Terraform failed, retrying", {
        method: request.method, path: new URL(request.url).pathname, reason, attempt, wait_ms: wait,
      });
      await sleep(Math.min(wait, MAX_DELAY_MS), signal);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }

  #failure(what: string, status: number, body: string): TfcApiError {
    return new TfcApiError(status, `Cannot ${what}: HCP Terraform answered ${status}: ${this.scrub(errorText(body))}`);
  }
}

/** A certificate problem does not fix itself: retrying it only delays the error. */
function isPermanent(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? "");
  return /CERT|SELF_SIGNED|TLS|SSL|ERR_INVALID_URL/.test(code) || /certificate/i.test(errorMessage(error));
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
