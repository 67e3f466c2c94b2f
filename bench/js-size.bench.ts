/**
 * First-load JavaScript per route (gzip) of the build (BUILD_DIR, default `build`), against
 * bench/js-budget.json: the same figures `npm run build` checks, kept with the run's results.
 *
 *   npm run build && npm run bench -- js-size      or      npx node bench/js-size.bench.ts
 */
import { budgetOf, firstLoadSizes, readBudget } from "./js-budget.ts";
import { report } from "./report.ts";

const budget = readBudget();
const routes = firstLoadSizes().map((s) => ({
  path: s.path,
  route: s.route,
  files: s.files,
  gzip_kb: Math.round(s.gzipBytes / 102.4) / 10,
  raw_kb: Math.round(s.rawBytes / 102.4) / 10,
  budget_kb: Math.round(budgetOf(budget, s.route) / 102.4) / 10,
  within_budget: s.gzipBytes <= budgetOf(budget, s.route),
}));
for (const r of routes) {
  console.log(
    `${r.path.padEnd(24)} ${String(r.gzip_kb).padStart(7)} kB gzip (${r.raw_kb} kB raw, ${r.files} files) / ${r.budget_kb} kB`,
  );
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
