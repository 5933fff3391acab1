/**
 * The HTTP API's bodies are typed from their JSON Schemas (plugins/http-api/src/schemas, `ApiBody`);
 * the plugin contract keeps its own hand-written types for the same data (run records, drift state,
 * damaged records...). These type-level checks tie each pair together, so a field added, removed or
 * retyped on one side only fails the typecheck (`tsc`, which `npm test` runs); the runtime part of
 * each case only states what was checked.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  DamagedRecord, DriftDetectionConfig, DriftState, HookReport, InputChange, ResourceChange, RunLog, RunOutput, RunPage, RunRecord,
  TaskOutputs, TaskState, TaskStatus, TriggerReason,
} from "../../../core/plugin-api/mod.ts";
import type { ClusterMember, ClusterStatus } from "../../../plugins/ha-consul/src/cluster-status.ts";
import type { ClusterStatusResponse, DamagedRecordsBody, TaskResponse } from "../../../plugins/http-api/src/schemas/responses.schema.ts";
import type { InputChangeBody, RunOutputBody, RunRecordBody, RunsResponse } from "../../../plugins/http-api/src/schemas/run-history.schema.ts";
import type { DriftStateBody, ResourceChangeBody, TaskStatusEntryBody } from "../../../plugins/http-api/src/schemas/task-changes.schema.ts";
import type { ApiTask } from "../../../plugins/http-api/src/schemas/task.schema.ts";

type Item<T> = T extends readonly (infer I)[] ? I : never;
type Value<T> = NonNullable<NonNullable<T>[keyof NonNullable<T>]>;

describe("the contract's types agree with the API schemas' inferred types (checked by tsc)", () => {
  it("RunRecord is the RunRecord schema's body, field for field", () => {
    expectTypeOf<RunRecord>().toEqualTypeOf<RunRecordBody>();
    expectTypeOf<TriggerReason>().toEqualTypeOf<RunRecordBody["trigger"]>();
    expectTypeOf<HookReport>().toEqualTypeOf<Item<RunRecordBody["hooks"]>>();
    expectTypeOf<RunLog>().toEqualTypeOf<Value<RunRecordBody["logs"]>>();
  });

  it("InputChange, RunOutput and ResourceChange are their schemas' bodies", () => {
    expectTypeOf<InputChange>().toEqualTypeOf<InputChangeBody>();
    expectTypeOf<RunOutput>().toEqualTypeOf<RunOutputBody>();
    expectTypeOf<ResourceChange>().toEqualTypeOf<ResourceChangeBody>();
  });

  it("DriftState is the DriftState schema's body; TaskStatus the status entry's statuses; its waiting the task state's", () => {
    expectTypeOf<DriftState>().toEqualTypeOf<DriftStateBody>();
    expectTypeOf<TaskStatus>().toEqualTypeOf<TaskStatusEntryBody["status"]>();
    expectTypeOf<TaskState["waiting"]>().toEqualTypeOf<TaskStatusEntryBody["waiting"]>();
  });

  it("DamagedRecord is an item of the damaged_records schema", () => {
    expectTypeOf<DamagedRecord>().toEqualTypeOf<Item<DamagedRecordsBody>>();
  });

  it("a task's drift_detection block is the task schema's", () => {
    expectTypeOf<DriftDetectionConfig>().toEqualTypeOf<NonNullable<ApiTask["drift_detection"]>>();
  });

  it("a run page and a task's outputs are what the runs and task answers carry", () => {
    expectTypeOf<RunPage>().toEqualTypeOf<Omit<RunsResponse, "request_id">>();
    expectTypeOf<TaskOutputs["outputs"]>().toEqualTypeOf<NonNullable<TaskResponse["outputs"]>>();
  });

  it("the cluster status ha-consul answers has the fields the document lists, each of its type", () => {
    expectTypeOf<ClusterMember>().toEqualTypeOf<Item<ClusterStatusResponse["members"]>>();
    expectTypeOf<keyof ClusterStatus>().toEqualTypeOf<keyof ClusterStatusResponse>();
    // `consul` is always in ha-consul's answer; the document leaves it optional.
    expectTypeOf<ClusterStatus>().toExtend<ClusterStatusResponse>();
  });
});
