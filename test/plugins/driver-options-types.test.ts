/**
 * The driver and notifier options have no hand-written TypeScript twin: each type is inferred from
 * its plugin's schema (`OptionsOf`), and each factory receives that type. Type-level assertions
 * (checked by `tsc`, which type-checks test files): a schema and the code reading it cannot drift.
 */
import { describe, expectTypeOf, test } from "vitest";
import type { DriverConfig, DriverFactory, OptionsOf, PluginContext } from "../../core/plugin-api/mod.ts";
import { createTerraformCloudDriverFactory } from "../../plugins/driver-terraform-cloud/src/driver-factory.ts";
import { terraformCloudOptionsSchema, type TerraformCloudTls } from "../../plugins/driver-terraform-cloud/src/options.ts";
import { terraformCloudWorkspaceSchema, workspaceBlockOf } from "../../plugins/driver-terraform-cloud/src/workspace-block.ts";
import { createTerraformDriverFactory } from "../../plugins/driver-terraform/src/driver-factory.ts";
import { terraformOptionsSchema } from "../../plugins/driver-terraform/src/options.ts";
import notifierWebhook, { notifierOptionsSchema, type NotifierOptions } from "../../plugins/notifier-webhook/mod.ts";

type Received<F> = F extends DriverFactory<infer O> ? O : never;

describe("driver and notifier options are their schemas' types", () => {
  test("terraform-cloud: the body its factory receives, its tls view and its task block", () => {
    type Block = OptionsOf<typeof terraformCloudOptionsSchema>;
    expectTypeOf<Received<ReturnType<typeof createTerraformCloudDriverFactory>>>().toEqualTypeOf<Block>();
    expectTypeOf<Parameters<ReturnType<typeof createTerraformCloudDriverFactory>["clientFor"]>[0]>().toEqualTypeOf<DriverConfig<Block>>();
    expectTypeOf<keyof TerraformCloudTls>().toEqualTypeOf<keyof typeof terraformCloudOptionsSchema.properties.tls.properties>();
    expectTypeOf(workspaceBlockOf).returns.toEqualTypeOf<OptionsOf<typeof terraformCloudWorkspaceSchema>>();
  });

  test("terraform: the body its factory receives", () => {
    expectTypeOf<Received<ReturnType<typeof createTerraformDriverFactory>>>().toEqualTypeOf<OptionsOf<typeof terraformOptionsSchema>>();
  });

  test("notifier-webhook: the options its init receives, the schema's defaults present", () => {
    expectTypeOf<NotifierOptions>().toEqualTypeOf<OptionsOf<typeof notifierOptionsSchema>>();
    expectTypeOf<Parameters<NonNullable<typeof notifierWebhook.init>>[1]>().toEqualTypeOf<PluginContext<NotifierOptions>>();
    expectTypeOf<NotifierOptions["retry"]["attempts"]>().toEqualTypeOf<number>();
  });
});
