/**
 * Which provider process runs the scheduled jobs. On a PostgreSQL server the leader is the process
 * holding a session-level advisory lock on its own dedicated connection: when that process dies,
 * or its connection does, the server releases the lock and the next process to try takes it.
 * PGlite has one process only, so it always leads.
 */
import pg from "pg";

export interface LeaderElection {
  readonly isLeader: boolean;
  /** Starts campaigning; `onChange` is called with true on gaining and false on losing leadership. */
  start(onChange: (leader: boolean) => void): void;
  /** Stops campaigning and releases leadership (the lock is freed for another process). */
  stop(): Promise<void>;
}

/** The lock key: one lock per database (advisory locks are per database), taken by one session. */
export const JOBS_LOCK_KEY = 4242007;

export function singleProcessLeader(): LeaderElection {
  let leader = false;
  let notify: (leader: boolean) => void = () => {};
  return {
    get isLeader() {
      return leader;
    },
    start(onChange) {
      notify = onChange;
      leader = true;
      onChange(true);
    },
    async stop() {
      if (leader) {
        leader = false;
        notify(false);
      }
    },
  };
}

export interface PostgresLeaderOptions {
  databaseUrl: string;
  lockKey?: number | undefined;
  /** How often a follower tries for the lock. */
  retryMs?: number | undefined;
  /** How often the leader checks its connection is still alive. */
  heartbeatMs?: number | undefined;
}

export function postgresLeader(options: PostgresLeaderOptions): LeaderElection {
  const lockKey = options.lockKey ?? JOBS_LOCK_KEY;
  const retryMs = options.retryMs ?? 5_000;
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  let client: pg.Client | null = null;
  let leader = false;
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let busy: Promise<void> = Promise.resolve();
  let onChange: (leader: boolean) => void = () => {};

  const setLeader = (value: boolean) => {
    if (leader === value) return;
    leader = value;
    onChange(value);
  };

  /** Drops the connection; if it held the lock, the server releases it as the session ends. */
  const dropConnection = async () => {
    const c = client;
    client = null;
    setLeader(false);
    if (c) await c.end().catch(() => {});
  };

  const ensureConnection = async (): Promise<pg.Client> => {
    if (client) return client;
    const c = new pg.Client({ connectionString: options.databaseUrl, keepAlive: true });
    c.on("error", (error) => {
      if (client !== c) return;
      console.error(`[jobs] leader connection error: ${error.message}`);
      void dropConnection();
    });
    c.on("end", () => {
      if (client === c) void dropConnection();
    });
    await c.connect();
    client = c;
    return c;
  };

  const tick = async () => {
    try {
      const c = await ensureConnection();
      if (leader) {
        await c.query("select 1");
      } else {
        const result = await c.query<{ locked: boolean }>("select pg_try_advisory_lock($1::bigint) as locked", [
          lockKey,
        ]);
        if (running && result.rows[0]?.locked) setLeader(true);
        else if (result.rows[0]?.locked) await c.query("select pg_advisory_unlock($1::bigint)", [lockKey]);
      }
    } catch (error) {
      if (running) console.error(`[jobs] leader election: ${(error as Error).message}`);
      await dropConnection();
    }
  };

  const schedule = () => {
    if (!running) return;
    timer = setTimeout(
      () => {
        timer = null;
        busy = tick().finally(schedule);
      },
      leader ? heartbeatMs : retryMs,
    );
    timer.unref();
  };

  return {
    get isLeader() {
      return leader;
    },
    start(callback) {
      if (running) return;
      running = true;
      onChange = callback;
      busy = tick().finally(schedule);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await busy;
      if (client && leader) await client.query("select pg_advisory_unlock($1::bigint)", [lockKey]).catch(() => {});
      await dropConnection();
    },
  };
}
