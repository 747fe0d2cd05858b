// The redaction table (issue 35): every secret shape is hidden, the command stays readable, and a
// command with nothing secret is left exactly as it was.
import * as assert from "node:assert/strict";
import { MARK, redact } from "../../src/engine/redact/redact";
import { PLAIN_COMMANDS, SECRET_CASES } from "../support/secret-shapes";

describe("redaction of secrets in commands", () => {
  for (const c of SECRET_CASES) {
    it(`${c.what}: hidden, command readable`, () => {
      const out = redact(c.command);
      for (const s of c.secrets) assert.ok(!out.includes(s), `${s} still in: ${out}`);
      for (const k of c.keeps) assert.ok(out.includes(k), `${k} lost in: ${out}`);
      assert.ok(out.includes(MARK), out);
    });
  }
  for (const cmd of PLAIN_COMMANDS) it(`leaves alone: ${cmd}`, () => assert.equal(redact(cmd), cmd));

  it("is idempotent (a ledger line redacted twice reads the same)", () => {
    for (const c of SECRET_CASES) assert.equal(redact(redact(c.command)), redact(c.command), c.what);
  });
});
