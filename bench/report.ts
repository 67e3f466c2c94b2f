import { writeFileSync } from "node:fs";

/** Writes a bench's result where bench/run.ts asked (BENCH_RESULT), or prints it when run alone. */
export function report(result: Record<string, unknown>): void {
  const path = process.env.BENCH_RESULT;
  if (path) writeFileSync(path, JSON.stringify(result, null, 2));
  else console.log(JSON.stringify(result, null, 2));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
