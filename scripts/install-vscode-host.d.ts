// Types for scripts/install-vscode-host.js, so the TypeScript test support can import its paths.
export declare const CODE_SERVER_VERSION: string;
export declare const NODE24_VERSION: string;
export interface HostPaths {
  toolsDir: string;
  codeServerVersion: string;
  node24Version: string;
  node24Dir: string;
  node24Pkg: string;
  node24Bin: string;
  codeServerDir: string;
  codeServerPkg: string;
  codeServerEntry: string;
  node24Marker: string;
  codeServerMarker: string;
}
export declare function toolsDir(): string;
export declare function hostPaths(): HostPaths;
export declare function ensureVscodeHost(): HostPaths;
/** Loads code-server's native addons with Node 24; the error text, or null when they load. */
export declare function nativeAddonsBroken(p: HostPaths): string | null;
