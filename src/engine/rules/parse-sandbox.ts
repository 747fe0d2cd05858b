// `sandbox:` in a rules file: the mode (auto | required | off), the read-only entries that tools
// must still update inside the sandbox, and the hosts a domain-filtering sandbox allows or refuses.
// Linted like every other key: unknown keys with a quick fix, wrong types, an unknown mode.
import { isMap, isScalar, type Node as YamlNode, type Pair } from "yaml";
import { SANDBOX_MODES, type SandboxMode } from "../sandbox/policy-types";
import type { SandboxSection } from "../types";
import { describe, listItems, reportUnknownKey, type ParseContext } from "./parse-context";

export const SANDBOX_KEYS = ["mode", "updatedByTools", "allowedHosts", "deniedHosts"] as const;

/** A host name or IP as a domain filter takes it: letters, digits, dots, dashes, an optional `*.` in front. */
const HOST = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$|^\[?[0-9a-fA-F:]+\]?$/;

export function readSandbox(ctx: ParseContext, value: YamlNode | null): void {
  if (value === null || (isScalar(value) && value.value === null)) return;
  if (!isMap(value)) {
    ctx.report("error", "wrong-type", `sandbox must be a mapping with the keys ${SANDBOX_KEYS.join(", ")} (got ${describe(value)}).`, ctx.nodeRange(value));
    return;
  }
  const out: SandboxSection = {};
  for (const pair of value.items as Pair<YamlNode, YamlNode>[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    if (key === "mode") {
      const v = pair.value;
      if (!isScalar(v) || !(SANDBOX_MODES as readonly unknown[]).includes(v.value)) {
        ctx.report("error", "wrong-type", `sandbox.mode must be one of ${SANDBOX_MODES.join(", ")}.`, ctx.nodeRange(v ?? pair.key));
        continue;
      }
      out.mode = v.value as SandboxMode;
    } else if (key === "updatedByTools" || key === "allowedHosts" || key === "deniedHosts") {
      const items = listItems(ctx, pair.value, `sandbox.${key} must be a list of ${key === "updatedByTools" ? "paths" : "host names"}.`);
      const list: string[] = [];
      for (const item of items ?? []) {
        const text = isScalar(item) && typeof item.value === "string" ? item.value.trim() : "";
        if (text === "") {
          ctx.report("error", "wrong-type", `Each sandbox.${key} entry must be a non-empty string (got ${describe(item)}).`, ctx.nodeRange(item));
        } else if (key !== "updatedByTools" && !HOST.test(text)) {
          ctx.report("error", "wrong-type", `"${text}" is not a host name (a name such as registry.npmjs.org, *.example.com, or an IP address; no scheme, port or path).`, ctx.nodeRange(item));
        } else list.push(text);
      }
      out[key] = list;
    } else reportUnknownKey(ctx, key, SANDBOX_KEYS, " in sandbox", ctx.nodeRange(pair.key));
  }
  ctx.rules.sandbox = out;
}
