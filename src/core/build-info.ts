// What this build is: the version esbuild writes in (package.json), "dev" when run unbundled, and
// the bundles that make up the pi extension.
declare const __DC_VERSION__: string | undefined;

export const VERSION: string = typeof __DC_VERSION__ === "string" ? __DC_VERSION__ : "dev";

/** What pi loads (esbuild.js: dist/pi-extension.js). */
export const PI_EXTENSION_BUNDLE = "pi-extension.js";
/** The local guard the extension loads beside it, only when no endpoint answers (dist/pi-local-guard.js). */
export const PI_LOCAL_GUARD_BUNDLE = "pi-local-guard.js";
/** Installed side by side in <agentDir>/damage-control/. */
export const PI_BUNDLES = [PI_EXTENSION_BUNDLE, PI_LOCAL_GUARD_BUNDLE] as const;
