/** The CLI client's address resolution: flag > CTS_ADDRESS > default, `-port` (deprecated), bare host:port. */
import { describe, expect, it } from "vitest";
import { clientFlags, clientFromFlags, DEFAULT_API_ADDRESS } from "../../../core/cli/api-client.ts";
import { parseFlags } from "../../../core/cli/parse-flags.ts";
import { bufferIo } from "./helpers/cli-io.ts";

async function addressOf(argv: string[], env: Record<string, string> = {}) {
  const io = bufferIo([], env);
  const client = await clientFromFlags(parseFlags(argv, clientFlags, env), io);
  return { address: client.address, stderr: io.stderr.join("") };
}

describe("CLI client address", () => {
  it("takes the flag over the environment over the default", async () => {
    expect((await addressOf([])).address).toBe(DEFAULT_API_ADDRESS);
    expect((await addressOf([], { CTS_ADDRESS: "http://10.0.0.5:9000" })).address).toBe("http://10.0.0.5:9000");
    expect((await addressOf(["-http-addr=http://127.0.0.1:1234"], { CTS_ADDRESS: "http://10.0.0.5:9000" })).address)
      .toBe("http://127.0.0.1:1234");
  });

  it("accepts host:port without a scheme as http", async () => {
    expect((await addressOf([], { CTS_ADDRESS: "cts.internal:8558" })).address).toBe("http://cts.internal:8558");
  });

  it("replaces the port with the deprecated -port and warns", async () => {
    const { address, stderr } = await addressOf(["-port=9999"]);
    expect(address).toBe("http://localhost:9999");
    expect(stderr).toContain("-port is deprecated");
  });
});
