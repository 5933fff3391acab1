/**
 * @module The kernel's HTTP router: one root fetch handler that lets interceptors see every
 * request first, then hands it to the plugin that mounted the longest matching path prefix.
 * Handlers receive the request unchanged (full path), so a Hono app mounts with its own paths.
 */
import {
  CtsError, errorMessage, type FetchHandler, type HttpRouter, type RequestInterceptor,
} from "../plugin-api/mod.ts";

interface Mount {
  readonly prefix: string;
  readonly handler: FetchHandler;
}

export class KernelHttpRouter implements HttpRouter {
  #mounts: Mount[] = [];
  readonly #interceptors: RequestInterceptor[] = [];
  #url: string | undefined;

  mount(prefix: string, handler: FetchHandler): void {
    const normalized = normalizePrefix(prefix);
    if (this.#mounts.some((mount) => mount.prefix === normalized)) {
      throw new CtsError("CTS_ERR_CONFLICT", `Cannot mount "${normalized}": the prefix is already mounted`);
    }
    // Longest prefix first, so dispatch is the first match.
    this.#mounts = [...this.#mounts, { prefix: normalized, handler }].sort((a, b) => b.prefix.length - a.prefix.length);
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
    try {
      for (const interceptor of this.#interceptors) {
        const early = await interceptor(request);
        if (early) return early;
      }
      const path = new URL(request.url).pathname;
      const mount = this.#mounts.find((m) => m.prefix === "" || path === m.prefix || path.startsWith(`${m.prefix}/`));
      if (!mount) return errorResponse(404, `no handler for ${path}`);
      return await mount.handler(request);
    } catch (error) {
      return errorResponse(500, errorMessage(error));
    }
  };
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
