/**
 * Scheduled jobs (automatic recommendation generation, price refresh, …) run only in the leader
 * process (./leader.ts). Each job runs when leadership is gained and then every `intervalMs` after
 * its previous run ended, so runs of one job never overlap. Losing leadership aborts the jobs'
 * signal and stops their timers. A job marked `everyProcess` runs in every process from start to
 * stop instead, whoever leads: it shares its work with the other processes through the database
 * (per-stock partitions, docs/decisions/0085-scheduled-work-partitioned-by-stock.md).
 */
import type { LeaderElection } from "./leader.ts";

export interface Job {
  /** Unique, for logs and runNow. */
  name: string;
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** One run; `signal` aborts when this process stops leading or the scheduler stops. */
  run(signal: AbortSignal): Promise<void>;
  /** Runs in every process, not only the leader (its work is claimed through the database). */
  everyProcess?: boolean | undefined;
}

export interface Scheduler {
  /** Adds a job; it starts at once when this process already leads. */
  register(job: Job): void;
  /** Starts campaigning for leadership; jobs run while this process leads. */
  start(): void;
  /** Stops the jobs, waits for running ones, and gives up leadership. */
  stop(): Promise<void>;
  readonly isLeader: boolean;
  /** Resolves once this process leads (for tests and start-up logs). */
  whenLeader(): Promise<void>;
  /** Runs one job now, whether or not this process leads, waiting for a run already under way first. */
  runNow(name: string): Promise<void>;
}

interface JobState {
  job: Job;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
}

export function createScheduler(election: LeaderElection): Scheduler {
  const states = new Map<string, JobState>();
  let controller: AbortController | null = null;
  /** Signal of the jobs every process runs: from start() to stop(). */
  let everywhere: AbortController | null = null;
  let waiters: (() => void)[] = [];

  const runOnce = (state: JobState, signal: AbortSignal): Promise<void> => {
    const previous = state.running ?? Promise.resolve();
    const run = previous.then(async () => {
      if (signal.aborted) return;
      try {
        await state.job.run(signal);
      } catch (error) {
        if (!signal.aborted) console.error(`[jobs] ${state.job.name} failed:`, error);
      }
    });
    state.running = run;
    void run.finally(() => {
      if (state.running === run) state.running = null;
    });
    return run;
  };

  const loop = (state: JobState, signal: AbortSignal) => {
    if (signal.aborted) return;
    void runOnce(state, signal).then(() => {
      if (signal.aborted) return;
      state.timer = setTimeout(() => loop(state, signal), state.job.intervalMs);
      state.timer.unref();
    });
  };

  const leaderOnly = () => [...states.values()].filter((s) => !s.job.everyProcess);

  const lead = () => {
    controller = new AbortController();
    for (const state of leaderOnly()) loop(state, controller.signal);
    for (const resolve of waiters) resolve();
    waiters = [];
  };

  const follow = () => {
    controller?.abort();
    controller = null;
    for (const state of leaderOnly()) {
      if (state.timer) clearTimeout(state.timer);
      state.timer = null;
    }
  };

  return {
    register(job) {
      if (states.has(job.name)) throw new Error(`A job named ${job.name} is registered already`);
      const state: JobState = { job, timer: null, running: null };
      states.set(job.name, state);
      const signal = job.everyProcess ? everywhere?.signal : controller?.signal;
      if (signal) loop(state, signal);
    },
    start() {
      if (!everywhere) {
        everywhere = new AbortController();
        for (const state of states.values()) if (state.job.everyProcess) loop(state, everywhere.signal);
      }
      election.start((leader) => (leader ? lead() : follow()));
    },
    async stop() {
      follow();
      everywhere?.abort();
      everywhere = null;
      for (const state of states.values()) {
        if (state.timer) clearTimeout(state.timer);
        state.timer = null;
      }
      await election.stop();
      await Promise.all([...states.values()].map((s) => s.running));
    },
    get isLeader() {
      return election.isLeader;
    },
    whenLeader() {
      if (controller) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async runNow(name) {
      const state = states.get(name);
      if (!state) throw new Error(`No job named ${name}`);
      const signal = state.job.everyProcess ? everywhere?.signal : controller?.signal;
      await runOnce(state, signal ?? new AbortController().signal);
    },
  };
}
