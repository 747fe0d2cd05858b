// Mocha's spec reporter, plus the run's counts written as JSON to $DC_STATS_FILE so that
// scripts/test.js can print one "N passed, N failed" line for all tiers together.
const fs = require("node:fs");
const Mocha = require("mocha");

class StatsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once("end", () => {
      const file = process.env.DC_STATS_FILE;
      if (!file) return;
      const { passes, failures, pending } = runner.stats ?? this.stats;
      fs.writeFileSync(file, JSON.stringify({ passes, failures, pending }));
    });
  }
}

module.exports = StatsReporter;
