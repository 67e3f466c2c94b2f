/** The sell-put recommendation engine: pure ranking (engine.ts), generation with storage and updates. */
export {
  analyzeChain,
  buyLevelAtOrAbove,
  ivRank,
  recentHistoricalVolatility,
  scoreOf,
  DEFAULT_SETTINGS,
  NO_LEVELS,
  RANKING,
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
