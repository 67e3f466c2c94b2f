/**
 * First-load JavaScript per route (gzip) of the build (BUILD_DIR, default `build`), against
 * bench/js-budget.json: the same figures `npm run build` checks, kept with the run's results.
 *
 *   npm run build && npm run bench -- js-size      or      npx node bench/js-size.bench.ts
 */
import { budgetOf, firstLoadSizes, overBudget, readBudget } from "./js-budget.ts";
import { report } from "./report.ts";

const budget = readBudget();
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
const routes = (await firstLoadSizes()).map((s) => ({
  path: s.path,
  route: s.route,
  files: s.files,
  // First load: 0 for a page whose scripts wait for the first interaction (ADR 0061).
  gzip_kb: kb(s.firstLoadGzipBytes),
  // The page's scripts, whenever they load.
  scripts_gzip_kb: kb(s.gzipBytes),
  raw_kb: kb(s.rawBytes),
  on_interaction: s.onInteraction,
  budget_kb: kb(budgetOf(budget, s.route)),
  within_budget: !overBudget(budget, s),
}));
for (const r of routes) {
  const files = `${r.raw_kb} kB raw, ${r.files} files`;
  const what = r.on_interaction ? `at the first interaction: ${r.scripts_gzip_kb} kB gzip, ${files}` : files;
  console.log(`${r.path.padEnd(24)} ${String(r.gzip_kb).padStart(7)} kB gzip (${what}) / ${r.budget_kb} kB`);
}
report({
  headline: {
    "largest first-load kB gzip": Math.max(...routes.map((r) => r.gzip_kb)),
    smallest: Math.min(...routes.map((r) => r.gzip_kb)),
    "all within budget": routes.every((r) => r.within_budget),
  },
  largest_gzip_kb: Math.max(...routes.map((r) => r.gzip_kb)),
  smallest_gzip_kb: Math.min(...routes.map((r) => r.gzip_kb)),
  all_within_budget: routes.every((r) => r.within_budget),
  routes,
});
