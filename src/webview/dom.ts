// DOM helpers of the panel webview. No innerHTML anywhere: text goes in as text nodes.
/// <reference lib="dom" />
import type { FromPanel } from "../views/panel/messages";

interface VsCodeApi {
  postMessage(message: FromPanel): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

/** The only way the webview talks to the extension: typed by the shared messages module. */
export function send(m: FromPanel): void {
  api.postMessage(m);
}

export type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | boolean | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") e.className = String(v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c));
  return e;
}

export function icon(name: string): HTMLElement {
  return el("span", { class: `codicon codicon-${name}`, "aria-hidden": "true" });
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} is missing`);
  return e as T;
}

/** `text` with [start, end) wrapped in <mark>. */
export function marked(text: string, match: { start: number; end: number } | null | undefined): Child[] {
  if (!match || match.end <= match.start || match.end > text.length) return [text];
  return [text.slice(0, match.start), el("mark", {}, text.slice(match.start, match.end)), text.slice(match.end)];
}
