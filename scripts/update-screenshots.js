// Copies the README and walkthrough images from the UI tests' screenshots
// (test-results/screenshots, written by `npm test -- vscode`) into docs/images/ and
// media/walkthrough/images/. Every image there is taken by a test; none is drawn by hand.
//   npm test -- vscode && node scripts/update-screenshots.js
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const from = path.join(root, "test-results", "screenshots");
/** screenshot name → where it goes (test that takes it in the comment). */
const IMAGES = {
  "panel-rules-editor.png": ["docs/images", "media/walkthrough/images"], // ui/panel: a valid edit saves YAML…
  "panel-rules-editor-invalid.png": ["docs/images"], // ui/panel: a new row with an invalid regex…
  "panel-feed.png": ["docs/images"], // ui/panel: refusals show in the feed…
  "panel-charts.png": ["docs/images"], // ui/panel: the chart shows the refusals just made
  "modal-ask.png": ["docs/images"], // ui/asks: an ask opens the modal…
  "try-a-command.png": ["docs/images"], // ui/rules: try a command…
  "diagnostics-squiggle.png": ["docs/images"], // ui/rules: a broken rules file shows error squiggles…
  "problems-panel.png": ["docs/images"], // ui/rules: the Problems panel lists each mistake…
  "quickfix-regex.png": ["docs/images"], // ui/newcomer: an invalid regex: closing the group comes first…
  "quickfix-regex-confirm.png": ["docs/images"], // ui/newcomer: (the fix that changes the rule asks first)
  "panel-health-lost-match.png": ["docs/images"], // ui/newcomer: (saved, the health line says so)
  "feed-allowed-in-folder.png": ["docs/images"], // ui/newcomer: the feed by kind… Allow answers
  "audit-log-formatted.png": ["docs/images"], // ui/newcomer: Show Audit Log opens a readable view
  "undo-feed-restored.png": ["docs/images"], // ui/undo: Restore … puts the file back (Restored)
  // The walkthrough's images: the side bar alone, readable at the walkthrough's width.
  "walkthrough-panel.png": ["media/walkthrough/images"], // ui/newcomer: the first screen…
  "walkthrough-feed.png": ["media/walkthrough/images"], // ui/newcomer: the feed by kind…
  "walkthrough-try.png": ["media/walkthrough/images"], // ui/newcomer: Test a Command answers in the panel…
};

let missing = 0;
for (const [name, dirs] of Object.entries(IMAGES)) {
  const src = path.join(from, name);
  if (!fs.existsSync(src)) {
    console.error(`missing ${path.relative(root, src)}: run the vscode tier first`);
    missing++;
    continue;
  }
  for (const dir of dirs) {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    fs.copyFileSync(src, path.join(root, dir, name));
    console.log(`${name} → ${dir}/`);
  }
}
process.exit(missing ? 1 : 0);
