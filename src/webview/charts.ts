// The panel's pictures, in plain SVG: bars for refusals per rule and per agent, sparklines for
// decisions over the last hour and day. Colours come from the theme (CSS classes in panel.css
// using VS Code's --vscode-charts-* variables); no inline styles (the CSP forbids them).
import { el, svg } from "./dom";
import { t } from "./l10n";

const BAR_H = 14;
const GAP = 4;

/** Horizontal bars, one per item: label above the bar, the count at its end. */
export function barChart(title: string, items: { label: string; count: number }[], id: string): HTMLElement {
  const wrap = el("figure", { class: "chart", id });
  wrap.append(el("figcaption", {}, title));
  if (items.length === 0) {
    wrap.append(el("p", { class: "muted" }, t("None yet.")));
    return wrap;
  }
  const max = Math.max(...items.map((i) => i.count));
  const rowH = BAR_H + 14 + GAP;
  const chart = svg("svg", { viewBox: `0 0 100 ${items.length * rowH}`, preserveAspectRatio: "none", role: "img", width: "100%", height: items.length * rowH, "aria-label": `${title}: ${items.map((i) => `${i.label} ${i.count}`).join(", ")}` });
  items.forEach((item, n) => {
    const y = n * rowH;
    const w = Math.max(2, (item.count / max) * 88);
    const g = svg("g", { class: "bar-row", "data-label": item.label, "data-count": item.count });
    g.append(svg("title", {}, `${item.label}: ${item.count}`));
    g.append(svg("rect", { class: "bar", x: 0, y: y + 14, width: w, height: BAR_H, rx: 1 }));
    chart.append(g);
  });
  // Text outside the stretched SVG so it is not distorted: an HTML overlay of labels.
  const labels = el("ol", { class: "bar-labels" });
  for (const item of items) labels.append(el("li", { "data-count": String(item.count) }, el("span", { class: "bar-label" }, item.label), el("span", { class: "bar-count" }, String(item.count))));
  wrap.append(el("div", { class: "bars" }, chart, labels));
  return wrap;
}

/** A sparkline of counts (oldest first), with the total and the peak said in words too. */
export function sparkline(title: string, values: number[], id: string, span: string): HTMLElement {
  const wrap = el("figure", { class: "chart spark", id });
  const total = values.reduce((a, b) => a + b, 0);
  wrap.append(el("figcaption", {}, `${title}: ${total}`));
  const w = 100;
  const h = 24;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? w / (values.length - 1) : w;
  const points = values.map((v, i) => `${(i * step).toFixed(2)},${(h - 2 - (v / max) * (h - 4)).toFixed(2)}`).join(" ");
  const chart = svg("svg", { viewBox: `0 0 ${w} ${h}`, preserveAspectRatio: "none", width: "100%", height: 28, role: "img", "aria-label": `${title}, ${span}: ${values.join(", ")}` });
  chart.append(svg("polygon", { class: "spark-area", points: `0,${h} ${points} ${w},${h}` }));
  chart.append(svg("polyline", { class: "spark-line", points, fill: "none", "vector-effect": "non-scaling-stroke" }));
  wrap.append(chart, el("div", { class: "muted spark-axis" }, el("span", {}, span), el("span", {}, t("now"))));
  return wrap;
}
