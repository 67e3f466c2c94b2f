/**
 * Values a trader may mean but probably did not (ADR 0083): a conservative value above the base
 * value, or buy levels out of order (the 1st is the highest, each next one lower). They are warned
 * about, not refused: the form comes back with the warnings and a box to tick to save them as they are.
 */
import { formatPrice } from "./format.ts";

/** The checkbox that accepts the warnings; a save without it that has warnings is not made. */
export const ACCEPT_WARNINGS = "accept_warnings";

export interface LevelValues {
  base_iv: number;
  conservative_iv: number;
  buy_level_one: number;
  buy_level_two: number;
  buy_level_three: number;
  buy_level_four: number;
}

const ORDINALS = ["1st", "2nd", "3rd", "4th"] as const;
const LEVELS = ["buy_level_one", "buy_level_two", "buy_level_three", "buy_level_four"] as const;

/** The warnings of a set of values, in words; empty when they are in order. 0 means not set and is skipped. */
export function levelWarnings(v: LevelValues): string[] {
  const warnings: string[] = [];
  if (v.base_iv > 0 && v.conservative_iv > v.base_iv) {
    warnings.push(
      `Cons Value ($${formatPrice(v.conservative_iv)}) is above Base Value ($${formatPrice(v.base_iv)}): the conservative value is meant to be the lower one.`,
    );
  }
  let previous: { ordinal: string; value: number } | null = null;
  for (let i = 0; i < LEVELS.length; i++) {
    const value = v[LEVELS[i]!];
    if (!(value > 0)) continue;
    if (previous && value > previous.value) {
      warnings.push(
        `The ${ORDINALS[i]} buy level ($${formatPrice(value)}) is above the ${previous.ordinal} ($${formatPrice(previous.value)}): buy levels go down from the 1st to the 4th.`,
      );
    }
    previous = { ordinal: ORDINALS[i]!, value };
  }
  return warnings;
}

/** Whether a posted form ticked the box that accepts its warnings. */
export const warningsAccepted = (formData: FormData) => formData.get(ACCEPT_WARNINGS) === "1";
