/**
 * @module Test helpers for plugin authors: boot a real kernel with your plugin, and run the
 * shared conformance suite for your driver, task store or condition (vitest is a peer of this kit).
 */
export { createTestKernel } from "./src/create-test-kernel.ts";
export type { TestKernel, TestKernelOptions } from "./src/create-test-kernel.ts";
export { createTestWatcher } from "./src/create-test-watcher.ts";
export type { TestWatcher } from "./src/create-test-watcher.ts";
export { describeConditionConformance } from "./src/describe-condition-conformance.ts";
export type {
  ConditionConformanceCase, ConditionConformanceFixtures, CountingQueryWatcher,
} from "./src/describe-condition-conformance.ts";
export { describeDriverConformance } from "./src/describe-driver-conformance.ts";
export type { DriverConformanceFixtures } from "./src/describe-driver-conformance.ts";
export { describeTaskStoreConformance, sampleEvent, sampleRun, sampleTask } from "./src/describe-task-store-conformance.ts";
export type { TaskStoreConformanceOptions } from "./src/describe-task-store-conformance.ts";
export { decodeInputBlock } from "cts-runtime";
export { eventually } from "./src/eventually.ts";
export { latest, recordingContext } from "./src/recording-context.ts";
export type { RecordingContext } from "./src/recording-context.ts";
export { daemonRunOptions, testConfig, testConsulConfig, testTask } from "./src/test-config.ts";
export type { TestConfigOverrides } from "./src/test-config.ts";
