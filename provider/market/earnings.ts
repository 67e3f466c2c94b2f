/**
 * Simulated earnings calendar: one report every 91 days per ticker at a ticker-specific phase,
 * moved off weekends and exchange holidays to the next trading day.
 */
import { isTradingDay } from "./calendar.ts";

export const EARNINGS_PERIOD_DAYS = 91;

export interface EarningsSchedule {
  /** Day number of the first report on or after `dayNumber`. */
  nextOnOrAfter(dayNumber: number): number;
  isEarningsDay(dayNumber: number): boolean;
}

export function earningsSchedule(phase: number): EarningsSchedule {
  const report = (k: number) => {
    let day = phase + k * EARNINGS_PERIOD_DAYS;
    while (!isTradingDay(day)) day++;
    return day;
  };
  const cycle = (day: number) => Math.floor((day - phase) / EARNINGS_PERIOD_DAYS);
  return {
    nextOnOrAfter(dayNumber) {
      for (let k = cycle(dayNumber); ; k++) {
        const day = report(k);
        if (day >= dayNumber) return day;
      }
    },
    isEarningsDay(dayNumber) {
      // A weekend or holiday shift moves a report at most four days later, so the cycle before can land here too.
      const k = cycle(dayNumber);
      return report(k) === dayNumber || report(k - 1) === dayNumber;
    },
  };
}
