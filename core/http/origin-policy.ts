/**
 * @module Which browser pages may use the API (beyond CTS, whose wildcard CORS lets any web page an
 * operator opens create and run a task). A state-changing request that a browser sends from another
 * origin is refused unless that origin is allowed; requests without `Origin` and `Sec-Fetch-Site`
 * (curl, CTS's CLI, scripts, other daemons) are not browsers' and pass unchanged. CORS answers
 * follow the same allowlist, for reads and writes.
 */

/** The methods that change state; a browser sends `Origin` with each of them. */
const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** `Access-Control-Allow-*` as CTS sends them, plus the headers cts-runtime's own clients send. */
const ALLOWED_METHODS = "GET, PUT, PATCH, POST, DELETE";
const ALLOWED_HEADERS = "Content-Type, Authorization, Last-Event-ID";

export interface OriginRules {
  /** Exact origins (`https://ops.example.com`), or `"*"` for every origin (CTS's behaviour). */
  readonly allowedOrigins: readonly string[];
}

/** The request's own origin as a browser on it would send it: scheme and `Host`, lower-cased. */
export function ownOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host") ?? url.host;
  return `${url.protocol}//${host}`.toLowerCase();
}

function allowedOrigin(origin: string, request: Request, rules: OriginRules): boolean {
  const normalized = origin.toLowerCase().replace(/\/$/, "");
  if (normalized === ownOrigin(request)) return true;
  return rules.allowedOrigins.some((entry) => entry === "*" || entry.toLowerCase().replace(/\/$/, "") === normalized);
}

/** Why a cross-origin browser write is refused, or undefined when it may go on. */
export function crossOriginWriteRefusal(request: Request, rules: OriginRules): string | undefined {
  if (!WRITE_METHODS.has(request.method)) return undefined;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    if (allowedOrigin(origin, request, rules)) return undefined;
    return `Cannot accept ${request.method} ${new URL(request.url).pathname} from a web page at ${origin}: browsers may change ` +
      `state only from the API's own origin (${ownOrigin(request)}) or an origin listed in api.allowed_origins`;
  }
  // Without Origin, Fetch Metadata still tells a browser's cross-site request apart.
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    return `Cannot accept ${request.method} ${new URL(request.url).pathname} sent by a browser from another origin ` +
      `(Sec-Fetch-Site: ${site}): list that page's origin in api.allowed_origins`;
  }
  return undefined;
}

/**
 * The CORS headers for an answer to `request`: none without `Origin` or for an origin that is not
 * allowed (the browser then keeps the answer from the page); the origin echoed for an allowed one;
 * `*` when every origin is allowed, as CTS answers.
 */
export function corsHeaders(request: Request, rules: OriginRules): Record<string, string> {
  const origin = request.headers.get("origin");
  const everyOrigin = rules.allowedOrigins.includes("*");
  if (!everyOrigin && (origin === null || !allowedOrigin(origin, request, rules))) return {};
  return {
    "access-control-allow-origin": everyOrigin ? "*" : origin!,
    "access-control-allow-headers": ALLOWED_HEADERS,
    "access-control-allow-methods": ALLOWED_METHODS,
    ...(everyOrigin ? {} : { vary: "Origin" }),
  };
}
