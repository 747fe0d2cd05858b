// What this build is: the version esbuild writes in (package.json), "dev" when run unbundled.
declare const __DC_VERSION__: string | undefined;

export const VERSION: string = typeof __DC_VERSION__ === "string" ? __DC_VERSION__ : "dev";
