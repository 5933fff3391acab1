/**
 * @module The task engine's own service tokens: the parts of the engine its services hand each
 * other (the `*Service` modules beside this file). They stay out of the contract (core/plugin-api): no other plugin can
 * use an engine's insides; what others use is `taskManagerToken` and `queryWatcherToken`.
 */
import { createToken, type Token } from "../../../core/plugin-api/mod.ts";
import type { DriftStates } from "./drift-service.ts";
import type { Engine } from "./engine.ts";
import type { ProviderSecrets } from "./provider-secrets.ts";
import type { RunPolicy } from "./run-policy.ts";
import type { TaskBlocks } from "./task-blocks.ts";
import type { TaskRecords } from "./task-records.ts";

export const providerSecretsToken: Token<ProviderSecrets> = createToken("task-engine.providerSecrets");
export const taskBlocksToken: Token<TaskBlocks> = createToken("task-engine.taskBlocks");
export const runPolicyToken: Token<RunPolicy> = createToken("task-engine.runPolicy");
export const taskRecordsToken: Token<TaskRecords> = createToken("task-engine.taskRecords");
export const engineToken: Token<Engine> = createToken("task-engine.engine");
export const driftStatesToken: Token<DriftStates> = createToken("task-engine.driftStates");
