/** @module The product version; test/core/version.test.ts keeps it equal to package.json. */
export const VERSION = "0.1.0";

/** Terraform/OpenTofu versions we drive. CTS pins an upper bound; we do not (users asked, see reference §1 A). */
export const TERRAFORM_CONSTRAINT = ">= 0.13.0";
