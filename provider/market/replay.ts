/**
 * The demo market's replay (docs/decisions/0037): while the exchange is closed, the simulated
 * market plays its latest session again at real speed, from that session's open to its close, and
 * then from the open again, so prices move, buy-level alerts fire and live updates flow at any hour.
 * Only the live figures (quotes and chains) replay; daily history, option closes and the track
 * record keep the real sessions. A live source never replays: closed is closed (status.ts).
 */
import { OPEN_MINUTE, closeMinuteOf, dayNumberOfTradingIndex, sessionAt, type Session } from "./calendar.ts";

/** Real speed: one replayed minute a minute, a 6.5-hour session in 6.5 hours. */
const REPLAY_SPEED = 1;

/**
 * The replayed moment at `now` (a closed market): the latest session, `fraction` of the way from its
 * open, where the replay has got to since that session closed; `asOf` is now, when it is shown.
 * E.g. Saturday 12:00 New York after a full Friday: 20 hours since Friday's 16:00 close, 20 h mod
 * 6.5 h = 30 minutes into the third replay, so Friday's 10:00 price (fraction 30/390).
 */
export function replaySession(now: Date): Session {
  const latest = sessionAt(now);
  const dayNumber = dayNumberOfTradingIndex(latest.day);
  const lengthMs = (closeMinuteOf(dayNumber) - OPEN_MINUTE) * 60_000;
  const elapsed = Math.max(0, now.getTime() - latest.asOf.getTime()) * REPLAY_SPEED;
  return { day: latest.day, fraction: (elapsed % lengthMs) / lengthMs, asOf: now };
}
