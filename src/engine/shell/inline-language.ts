// The interpreters whose inline code is read (inline.ts scans it, path-expr.ts evaluates the path
// expressions in it): one name per language, as the interpreter handlers pass it.
// (lua: the code an editor runs, `nvim -c 'lua os.execute(…)'`; not an interpreter family.)
export type Language = "python" | "node" | "ruby" | "perl" | "php" | "lua";
