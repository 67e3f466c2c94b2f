/**
 * A bench's figures for the table: its `headline` object when it has one, else its numeric and
 * yes/no values flattened (a.0.b=1), medians, percentiles and goal verdicts first, a dozen at most.
 */
export function headline(result: Record<string, unknown>): string[] {
  if ("error" in result) return [`failed: ${String(result.error)}`];
  if (result.headline && typeof result.headline === "object") {
    return Object.entries(result.headline).map(([k, v]) => `${k} ${String(v)}`);
  }
  const leaves: { path: string; text: string; preferred: boolean }[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === "number" || typeof value === "boolean") {
      const preferred = /median|p50|p9\d|per|within|met|warm/i.test(path) && !/(^|\.)(goals?|cold)(\.|$)/i.test(path);
      leaves.push({ path, text: `${path}=${value}`, preferred });
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        if (k === "seconds" || k === "settings") continue;
        walk(v, path ? `${path}.${k}` : k);
      }
    }
  };
  walk(result, "");
  return [...leaves.filter((l) => l.preferred), ...leaves.filter((l) => !l.preferred)].slice(0, 12).map((l) => l.text);
}
