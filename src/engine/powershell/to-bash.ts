// A native program met in PowerShell goes to the bash analysis: by its bare name, with its words
// quoted so bash reads each as one word.

/** `C:\Program Files\Git\bin\git.exe` → `git`. */
export function programName(written: string): string {
  const base = written.replace(/\\/g, "/").split("/").pop() ?? written;
  return base.replace(/\.(exe|cmd|bat|com|ps1)$/i, "");
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
