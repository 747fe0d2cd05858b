// The sandbox scenario's script (issue 34), shared by every agent's suite: its text says nothing
// (`python3 cleanup.py`), and it prints .env (zero-access), optionally rewrites a file of a
// read-only folder, then deletes that folder. Each step reports its failure instead of stopping,
// so one run shows everything the kernel refused.
export function cleanupScript(folder: string, rewrite?: { file: string; content: string }): string {
  const step = (code: string, what: string) => `try:\n    ${code}\nexcept Exception as e:\n    print("${what} failed:", e)\n`;
  return [
    "import shutil\n",
    step('print("ENV:", open(".env").read())', "read"),
    rewrite ? step(`open(${JSON.stringify(rewrite.file)}, "w").write(${JSON.stringify(rewrite.content)})`, "write") : "",
    step(`shutil.rmtree(${JSON.stringify(folder)})\n    print("deleted ${folder}")`, rewrite ? "rm" : "delete"),
  ].join("");
}
