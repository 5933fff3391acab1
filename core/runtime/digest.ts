/** @module Digests Web Crypto lacks: MD5, which the HCP Terraform state-version API carries. */
import { createHash } from "node:crypto";

/** Lowercase hex MD5 of `bytes`. */
export function md5Hex(bytes: Uint8Array): string {
  return createHash("md5").update(bytes).digest("hex");
}
