/**
 * @module The signal of one blocking request: aborted by its caller (the watch ends) or by a change
 * of credentials (a token rotated in Vault), which only re-parks it: the caller asks again at once,
 * at the same index, with the new credentials, so the old token is out of use before it is revoked
 * and no watch starts over.
 */

export interface ParkedRequest {
  readonly signal: AbortSignal;
  /** True when the credentials changed (and the caller did not end the request). */
  rotated(): boolean;
  /** Removes the listeners; call when the request settled. */
  release(): void;
}

export function parkedRequest(caller: AbortSignal | undefined, credentialsChanged: AbortSignal): ParkedRequest {
  const controller = new AbortController();
  const onCaller = () => controller.abort(caller!.reason);
  const onRotation = () => controller.abort(new Error("Consul credentials rotated"));
  if (caller?.aborted) onCaller();
  caller?.addEventListener("abort", onCaller, { once: true });
  credentialsChanged.addEventListener("abort", onRotation, { once: true });
  return {
    signal: controller.signal,
    rotated: () => credentialsChanged.aborted && caller?.aborted !== true,
    release: () => {
      caller?.removeEventListener("abort", onCaller);
      credentialsChanged.removeEventListener("abort", onRotation);
    },
  };
}
