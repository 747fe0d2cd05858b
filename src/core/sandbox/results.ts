// What the kernel refused inside our sandbox, read after the call (issue 34, item 5). The runner
// agents echo the command as it ran in their post-tool event (Codex PostToolUse, Gemini AfterTool,
// measured): our runner's wrapper, byte for byte as the guard wrote it. So the guard remembers each
// wrapper it handed out with the call it stands for, and a post-tool event whose command is one of
// them is a sandboxed call's result; its output is read for the EACCES / EROFS messages on the
// policy's paths (engine/sandbox/refusals.ts). A wrapper we never wrote is never believed.
import { kernelRefusals, type KernelRefusal } from "../../engine/sandbox/refusals";
import type { SandboxPolicy } from "../../engine/sandbox/policy-types";

/** The call a wrapper stands for: the model's command, the policy's id, where it ran. */
export interface SandboxedCall {
  command: string;
  policy: string;
  folder: string;
  /** The folder relative paths in the output are resolved against (the call's own cwd). */
  cwd: string;
}

/** Wrappers remembered (the oldest is forgotten first): a post-tool event follows its call within a turn. */
export const SANDBOXED_KEPT = 512;
/** Output read for refusals: a tool's output can be large; the head and the tail are kept. */
export const OUTPUT_READ = 256 * 1024;
/** Cheap test before a policy is made: no message of a refusal, nothing to look for. */
const REFUSAL_WORDS = /Permission denied|Read-only file system|EACCES|EROFS/;

export class SandboxedCalls {
  private readonly calls = new Map<string, SandboxedCall>();

  remember(run: string, call: SandboxedCall): void {
    this.calls.delete(run);
    this.calls.set(run, call);
    if (this.calls.size > SANDBOXED_KEPT) this.calls.delete(this.calls.keys().next().value!);
  }

  find(ran: string): SandboxedCall | undefined {
    return this.calls.get(ran);
  }

  get size(): number {
    return this.calls.size;
  }
}

/** The refusals in a sandboxed call's output; `policy` is asked for only when the output has a refusal's words. */
export function refusedIn(output: string, policy: () => SandboxPolicy | undefined, cwd: string): KernelRefusal[] {
  const text = output.length > OUTPUT_READ ? `${output.slice(0, OUTPUT_READ / 2)}\n${output.slice(-OUTPUT_READ / 2)}` : output;
  if (!REFUSAL_WORDS.test(text)) return [];
  const p = policy();
  return p ? kernelRefusals(text, p, cwd) : [];
}

/** One line for people: what the kernel refused, and the rule behind each. */
export function kernelReason(refused: readonly KernelRefusal[]): string {
  const parts = refused.map((r) => `${r.kind === "read" ? "reading" : "writing"} ${r.path} (rule ${r.rule}${r.reason ? `: ${r.reason}` : ""})`);
  return `The sandbox's kernel refused ${parts.join("; ")}`;
}
