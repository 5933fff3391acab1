/**
 * @module Test helpers for plugin authors: boot a real kernel with your plugin, and run the
 * shared conformance suite for your driver or task store (vitest is a peer of this kit).
 */
export { createTestKernel } from "./src/create-test-kernel.ts";
export type { TestKernel, TestKernelOptions } from "./src/create-test-kernel.ts";
export { describeDriverConformance } from "./src/describe-driver-conformance.ts";
export type { DriverConformanceFixtures } from "./src/describe-driver-conformance.ts";
export { describeTaskStoreConformance, sampleEvent, sampleTask } from "./src/describe-task-store-conformance.ts";
export { daemonRunOptions, testConfig, testConsulConfig } from "./src/test-config.ts";
export type { TestConfigOverrides } from "./src/test-config.ts";
