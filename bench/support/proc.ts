/**
 * A child process's resources from /proc (Linux): resident memory and CPU time. CPU time is what
 * a benchmark on a shared machine can compare: other jobs stretch the latencies, not the CPU
 * a request costs.
 */
import { readFileSync } from "node:fs";

/** Resident memory of a process, in bytes. */
export function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : NaN;
}

/** CPU time (user + system) a process has used, in ms (USER_HZ is 100). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The 1-, 5- and 15-minute load averages. */
export function loadAverage(): number[] {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);
}

/**
 * Waits until a process has used under `share` of one core for a whole second (at most `maxMs`),
 * and not before `notBefore` (a Date.now() time): the embedded provider's start-up jobs (the track
 * record's back-test, which starts 10 s after the process, and the simulated market's first
 * session) would otherwise be counted in the first measurement. Returns the wait.
 */
export async function untilQuiet(pid: number, { share = 0.1, maxMs = 120_000, notBefore = 0 } = {}): Promise<number> {
  const started = Date.now();
  for (;;) {
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 1_000));
    const quiet = cpuMs(pid) - before < share * 1_000 && Date.now() >= notBefore;
    if (quiet || Date.now() - started > maxMs) return Date.now() - started;
  }
}
