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

export interface Timing {
  wall: number;
  cpu: number;
}

/** Wall and CPU milliseconds of `work` (CPU: this process's user and system time). */
export async function timed(work: () => Promise<unknown>): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await work();
  const cpu = process.cpuUsage(cpu0);
  return { wall: performance.now() - wall0, cpu: (cpu.user + cpu.system) / 1000 };
}

export const r1 = (x: number) => Math.round(x * 10) / 10;

/** The first (cold) round, and the median and slowest of the warm rounds after it. */
export function summary(rounds: Timing[]) {
  const warm = rounds.slice(1);
  return {
    cold: { wall: r1(rounds[0]!.wall), cpu: r1(rounds[0]!.cpu) },
    warm: { wall: r1(median(warm.map((t) => t.wall))), cpu: r1(median(warm.map((t) => t.cpu))) },
    warm_max_wall: r1(Math.max(...warm.map((t) => t.wall))),
  };
}
