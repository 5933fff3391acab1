/** Raw HTTP against the dev server for focused tests (exact status codes, headers and bodies). */

export interface RawResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  readonly body: unknown;
  readonly index: number;
}

export function client(baseUrl: string, defaults: { token?: string } = {}) {
  async function call(method: string, path: string, body?: string | object, init: RequestInit = {}): Promise<RawResponse> {
    const headers = new Headers(init.headers);
    if (defaults.token && !headers.has("X-Consul-Token")) headers.set("X-Consul-Token", defaults.token);
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status, headers: response.headers, text, body: parsed,
      index: Number(response.headers.get("X-Consul-Index") ?? 0),
    };
  }
  return {
    get: (path: string, init?: RequestInit) => call("GET", path, undefined, init),
    put: (path: string, body?: string | object, init?: RequestInit) => call("PUT", path, body, init),
    del: (path: string, init?: RequestInit) => call("DELETE", path, undefined, init),
    call,
  };
}

/** Resolves once `predicate` holds, re-checking on every macrotask (no sleeps, no timing). */
export async function until(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setImmediate(resolve));
}
