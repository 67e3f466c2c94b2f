/** The sell-put recommendation engine: pure ranking (engine.ts), generation with storage and updates. */
export {
  analyzeChain,
  buyLevelAtOrAbove,
  ivRank,
  recentHistoricalVolatility,
  DEFAULT_SETTINGS,
  NO_LEVELS,
  type Analysis,
  type BuyLevelName,
  type Candidate,
  type EngineInput,
  type EngineSettings,
  type ReferenceLevels,
} from "./engine.ts";
export {
  generateRecommendations,
  type GenerateOptions,
  type GenerateResult,
  type RecommendContext,
} from "./generate.ts";
export { referenceLevels, type LevelsSource } from "./levels.ts";
export { activeRecommendations, topLine, topLineOf } from "./store.ts";
export { recommendContext } from "./context.ts";
export { DEFAULT_FILTERS, FILTER_LIMITS, SCORE, selectFor, type TraderFilterValues } from "./selection.ts";
