/**
 * @module The last line of defence for secrets in answers: a JSON or text body is masked before it
 * leaves the daemon, whichever plugin wrote it. Streams (`text/event-stream`) are masked at their
 * source (the daemon's event bus), since buffering them here would never end.
 */
import type { SecretMasker } from "../plugin-api/mod.ts";

function maskable(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return response.body !== null && !type.startsWith("text/event-stream") && (type.includes("json") || type.startsWith("text/"));
}

export async function maskResponse(response: Response, secrets: Pick<SecretMasker, "mask" | "size">): Promise<Response> {
  if (secrets.size === 0 || !maskable(response)) return response;
  const text = await response.text();
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(secrets.mask(text), { status: response.status, statusText: response.statusText, headers });
}
