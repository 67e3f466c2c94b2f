/** AI explanations: the explainer port, its two implementations, the facts they write from. */
import { createBuiltInAnalyst } from "./analyst.ts";
import { createOpenAiExplainer } from "./openai.ts";
import type { AiSettings, Explainer } from "./port.ts";

export { AiError, type AiSettings, type Explainer } from "./port.ts";
export { recommendationFacts, stockFacts, type RecommendationFacts, type StockFacts } from "./facts.ts";
export { streamText } from "./stream.ts";
export { createBuiltInAnalyst } from "./analyst.ts";
export { createOpenAiExplainer, DEFAULT_AI_TIMEOUT_MS } from "./openai.ts";

/** The OpenAI-compatible client when settings are given (AI_BASE_URL), else the built-in analyst. */
export function createExplainer(settings?: AiSettings): Explainer {
  return settings ? createOpenAiExplainer(settings) : createBuiltInAnalyst();
}
