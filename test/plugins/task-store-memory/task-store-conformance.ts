/** @module Kept for importers of the old path: the suite now lives in the plugin testkit. */
export { describeTaskStoreConformance, sampleEvent, sampleTask } from "../../../core/plugin-testkit/mod.ts";
