// One effect, one answer (issue 36, family 10): an MCP tool whose arguments describe what a known
// command line does gets that command line, judged as the Bash call would be — severity included.
//   an HTTP request (`url` + `method`)          → curl -X METHOD URL
//   a repository's visibility made public         → gh repo edit OWNER/REPO --visibility public
// Only the shape of the effect is carried over: bodies, headers and tokens are not (never shown).

const HTTP_METHODS = /^(GET|HEAD|OPTIONS|POST|PUT|PATCH|DELETE|PURGE)$/i;
const REPO_WORDS = /^(repo|repos|repository|repositories|project|projects)$/;

/** The command line the arguments amount to, with the key it was read from; undefined: none. */
export function sameAsCommand(words: readonly string[], input: unknown): { key: string; text: string } | undefined {
  if (!isObject(input)) return undefined;
  const url = typeof input.url === "string" ? input.url : typeof input.uri === "string" ? input.uri : undefined;
  const method = typeof input.method === "string" ? input.method : undefined;
  if (url && /^https?:\/\//i.test(url) && method && HTTP_METHODS.test(method)) return { key: "method", text: `curl -X ${method.toUpperCase()} ${quote(url)}` };
  const madePublic = input.private === false || (typeof input.visibility === "string" && input.visibility.toLowerCase() === "public");
  if (madePublic && words.some((w) => REPO_WORDS.test(w))) {
    const owner = typeof input.owner === "string" ? input.owner : "OWNER";
    const repo = typeof input.repo === "string" ? input.repo : typeof input.name === "string" ? input.name : "REPO";
    return { key: input.private === false ? "private" : "visibility", text: `gh repo edit ${quote(`${owner}/${repo}`)} --visibility public` };
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function quote(word: string): string {
  return /^[\w@%+=:,./?&#~-]+$/.test(word) && !word.startsWith("~") ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
