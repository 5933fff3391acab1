/**
 * @module The kernel's HTTP router: one root fetch handler that guards every request (request-guard.ts),
 * lets interceptors see it, then hands it to the plugin that mounted the longest matching path
 * prefix. Handlers receive the request unchanged (full path), so a Hono app mounts with its own
 * paths. Every answer gets the CORS headers the allowlist grants and has known secrets masked.
 */
import stripAnsi from "strip-ansi";
import {
  CtsError, errorMessage, type FetchHandler, type HttpRouter, type MountOptions, type RequestInterceptor, type SecretMasker,
} from "../plugin-api/mod.ts";
import { maskResponse } from "./masked-response.ts";
import { RequestGuard } from "./request-guard.ts";

interface Mount {
  readonly prefix: string;
  readonly handler: FetchHandler;
  readonly public?: (path: string) => boolean;
}

/** Nothing to mask (a router built without the daemon's masker, in tests). */
const NO_SECRETS: Pick<SecretMasker, "mask" | "size"> = { mask: (text) => text, size: 0 };

export class KernelHttpRouter implements HttpRouter {
  #mounts: Mount[] = [];
  readonly #interceptors: RequestInterceptor[] = [];
  readonly #secrets: Pick<SecretMasker, "mask" | "size">;
  /** Configured by the kernel from the `api {}` block when it starts serving. */
  readonly guard = new RequestGuard();
  #url: string | undefined;

  constructor(secrets: Pick<SecretMasker, "mask" | "size"> = NO_SECRETS) {
    this.#secrets = secrets;
  }

  mount(prefix: string, handler: FetchHandler, options: MountOptions = {}): void {
    const normalized = normalizePrefix(prefix);
    if (this.#mounts.some((mount) => mount.prefix === normalized)) {
      throw new CtsError("CTS_ERR_CONFLICT", `Cannot mount "${normalized}": the prefix is already mounted`);
    }
    const mount: Mount = { prefix: normalized, handler, ...(options.public ? { public: options.public } : {}) };
    // Longest prefix first, so dispatch is the first match.
    this.#mounts = [...this.#mounts, mount].sort((a, b) => b.prefix.length - a.prefix.length);
  }

  intercept(interceptor: RequestInterceptor): void {
    this.#interceptors.push(interceptor);
  }

  get url(): string | undefined {
    return this.#url;
  }

  /** Set by the kernel once the server listens (and cleared when it closes). */
  setUrl(url: string | undefined): void {
    this.#url = url;
  }

  get hasMounts(): boolean {
    return this.#mounts.length > 0;
  }

  /** The root handler the server runs. Never throws: failures become 500 JSON. */
  readonly fetch = async (request: Request): Promise<Response> => {
    let response: Response;
    try {
      response = await this.#dispatch(request);
    } catch (error) {
      response = errorResponse(500, stripAnsi(errorMessage(error)));
    }
    return this.guard.withCors(request, await maskResponse(response, this.#secrets));
  };

  async #dispatch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const mount = this.#mounts.find((m) => m.prefix === "" || path === m.prefix || path.startsWith(`${m.prefix}/`));
    const refused = await this.guard.check(request, mount?.public?.(path) === true);
    if (refused) return refused;
    for (const interceptor of this.#interceptors) {
      const early = await interceptor(request);
      if (early) return early;
    }
    if (!mount) return errorResponse(404, `no handler for ${path}`);
    return await mount.handler(request);
  }
}

/** `/v1/` and `/v1` are the same mount; `/` mounts everything (stored as ""). */
function normalizePrefix(prefix: string): string {
  if (!prefix.startsWith("/")) {
    throw new TypeError(`Cannot mount "${prefix}": a prefix starts with "/"`);
  }
  return prefix.replace(/\/+$/, "");
}

/** CTS's error body shape. */
function errorResponse(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status });
}
