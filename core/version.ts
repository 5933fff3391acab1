/** @module The product version; test/core/version.test.ts keeps it equal to package.json. */
export const VERSION = "0.1.0";

/** Terraform/OpenTofu versions we drive. CTS pins an upper bound; we do not (users asked, see reference §1 A). */
export const TERRAFORM_CONSTRAINT = ">= 0.13.0";

/** The consul-terraform-sync release whose behaviour we follow (its version/version.go). */
export const CTS_VERSION = "0.9.0";
