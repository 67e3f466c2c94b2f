/** Close-to-close historical volatility, annualised with 252 trading days. */

const TRADING_DAYS_PER_YEAR = 252;

/**
 * Sample standard deviation of the last `window` daily log returns of `closes` (oldest first),
 * times √252. Needs window + 1 closes.
 */
export function historicalVolatility(closes: readonly number[], window = 20): number {
  if (!Number.isInteger(window) || window < 2) {
    throw new RangeError(`Historical volatility needs a window of at least 2 returns, got ${window}`);
  }
  if (closes.length < window + 1) {
    throw new RangeError(
      `Historical volatility over ${window} days needs at least ${window + 1} closes, got ${closes.length}`,
    );
  }
  const tail = closes.slice(closes.length - window - 1);
  const returns: number[] = [];
  for (let i = 1; i < tail.length; i++) {
    const prev = tail[i - 1]!;
    const cur = tail[i]!;
    if (!(prev > 0 && cur > 0 && Number.isFinite(prev) && Number.isFinite(cur))) {
      throw new RangeError(`Historical volatility needs positive closes, got ${prev} and ${cur}`);
    }
    returns.push(Math.log(cur / prev));
  }
  const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
  const variance = returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (returns.length - 1);
  return Math.sqrt(variance * TRADING_DAYS_PER_YEAR);
}
