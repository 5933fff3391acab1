/**
 * The `hooks` task block (plugins/task-hooks) as the kernel checks it: a block a plugin other than
 * the driver owns (TaskBlockFactory), accepted under every driver, decoded and defaulted by its
 * owner's schema, and refused with the file, the field and what was expected when it is wrong.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createKernel } from "../../../core/kernel/kernel.ts";
import { type CtsConfig, taskBlockOf, taskBuilderToken } from "../../../core/plugin-api/mod.ts";
import { testConfig } from "../../../core/plugin-testkit/src/test-config.ts";
import { recordingLogSink } from "../../core/kernel/kernel-fixtures.ts";
import { ownedConfigOf, ownerIssuesOf, removeConfigDirs } from "../../core/config/config-dir.ts";

afterAll(removeConfigDirs);

const task = (hooks: string, driver = "") => ({
  "cts.hcl": `${driver}
task {
  name   = "web"
  module = "./module"
  condition "services" {
    names = ["web"]
  }
${hooks}
}
`,
});

describe("the hooks block", () => {
  it("is read as its owner declares it: each stage a list in the order written, timeouts defaulted", async () => {
    const { config, issues } = await ownedConfigOf(task(`  hooks {
    pre_apply {
      command = ["./check.sh", "--strict"]
      timeout = "30s"
    }
    post_apply {
      command = ["./commit.sh"]
    }
    post_apply {
      command = ["./notify.sh"]
      timeout = "5s"
    }
  }`));
    expect(issues).toEqual([]);
    expect(taskBlockOf(config.tasks[0]!, "hooks")).toEqual({
      pre_apply: [{ command: ["./check.sh", "--strict"], timeout: "30s" }],
      post_apply: [{ command: ["./commit.sh"], timeout: "60s" }, { command: ["./notify.sh"], timeout: "5s" }],
    });
  });

  it("is accepted under another driver (it belongs to no driver)", async () => {
    const issues = await ownerIssuesOf(task(`  hooks {
    post_apply {
      command = ["true"]
    }
  }`, `driver "terraform-cloud" {
  organization = "org"
  token        = "t"
}`));
    expect(issues.filter((issue) => issue.path.includes("hooks"))).toEqual([]);
  });

  it("names the file, the field and what was expected when it is wrong", async () => {
    const issues = await ownerIssuesOf(task(`  hooks {
    pre_apply {
      command = [""]
      timeout = "-5s"
    }
    post_apply {
      timeout = "1m"
    }
    after_apply {
      command = ["x"]
    }
  }`));
    // The schema's problems first; the owner's rules run on a block that passed it.
    expect(issues.map((issue) => `${issue.file.split("/").pop()} ${issue.path}: ${issue.message}`)).toEqual([
      'cts.hcl task[0].hooks.after_apply: unknown field "after_apply" (expected one of: post_apply, pre_apply)',
      "cts.hcl task[0].hooks.post_apply[0].command: is required",
    ]);
    const fixed = await ownerIssuesOf(task(`  hooks {
    pre_apply {
      command = [""]
      timeout = "-5s"
    }
  }`));
    expect(fixed.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      "task[0].hooks.pre_apply[0].command[0]: must name the program to run, got \"\"",
      "task[0].hooks.pre_apply[0].timeout: must be a positive duration such as \"30s\", got \"-5s\"",
    ]);
  });

  it("refuses a second hooks block and a misspelt one with the names it knows", async () => {
    const twice = await ownerIssuesOf(task(`  hooks {
  }
  hooks {
  }`));
    expect(twice.map((issue) => `${issue.path}: ${issue.message}`)).toContain('task[0].hooks: only one "hooks" block can be configured');
    const misspelt = await ownerIssuesOf(task(`  hook {
    pre_apply {
      command = ["x"]
    }
  }`));
    expect(misspelt.map((issue) => `${issue.path}: ${issue.message}`)).toEqual(['task[0].hook: unknown field "hook" (did you mean "hooks"?)']);
  });

  it("is refused from the API unless the operator allowed it: the API must not run commands on the host", async () => {
    const config = testConfig();
    const block = {
      name: "from-api", module: "./module", condition: { services: { names: ["web"] } },
      hooks: { post_apply: [{ command: ["/bin/sh", "-c", "id"] }] },
    };
    const refused = await builtWith(config, {}, block);
    expect(refused).toBe(
      "Cannot create task: task.hooks: runs commands on the daemon's host, so it may be set in config files only " +
        "(to allow it through the HTTP API: plugin \"task-hooks\" { options = { allow_from_api = true } })",
    );
    expect(await builtWith(config, {}, { ...block, hooks: {} })).toBe("built");
    expect(await builtWith(config, { allow_from_api: true }, block)).toBe("built");
  });
});

/** Builds `block` as the API does (the kernel's task builder), with the hooks plugin's options; "built" or the error. */
async function builtWith(config: CtsConfig, options: Record<string, unknown>, block: Record<string, unknown>): Promise<string> {
  const kernel = await createKernel({
    config: { ...config, plugins: [{ name: "task-hooks", source: "builtin:task-hooks", options }] },
    runOptions: { mode: "validate", inspectTasks: [], resetStorage: false }, logSink: recordingLogSink(),
  });
  await kernel.init();
  try {
    kernel.resolve(taskBuilderToken).build(block);
    return "built";
  } catch (error) {
    return (error as Error).message;
  } finally {
    await kernel.stop();
  }
}
