/** @module Request bodies: JSON with exact uint64s; an empty body decodes as null. */
import { badRequest } from "../api-error.ts";
import { parseJsonExact } from "../exact-json.ts";

export async function readJsonBody(request: Request, errorPrefix: string): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return null;
  try {
    return parseJsonExact(text);
  } catch (error) {
    throw badRequest(`${errorPrefix}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
