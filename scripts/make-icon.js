// Renders media/icon.png (128×128, the marketplace icon) from an SVG with headless Chromium.
// Run by hand when the icon changes: node scripts/make-icon.js
const path = require("node:path");
const { chromium } = require("playwright-core");

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
  <rect width="128" height="128" rx="24" fill="#1e2a38"/>
  <path d="M64 16 28 30v30c0 25 15.5 44 36 52 20.5-8 36-27 36-52V30z" fill="#e8b03a"/>
  <path d="M64 27 38 37v23c0 19 11 34 26 41 15-7 26-22 26-41V37z" fill="#1e2a38"/>
  <path d="M49 65l11 11 21-24" fill="none" stroke="#e8b03a" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.DC_CHROMIUM || "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.screenshot({ path: path.join(__dirname, "..", "media", "icon.png"), omitBackground: true, clip: { x: 0, y: 0, width: 128, height: 128 } });
  await browser.close();
})();
