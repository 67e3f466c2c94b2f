/** Chooses the explainer: the OpenAI-compatible client when settings are given (AI_BASE_URL), else the built-in analyst. */
import { createBuiltInAnalyst } from "./analyst.ts";
import { createOpenAiExplainer } from "./openai.ts";
import type { AiSettings, Explainer } from "./port.ts";

export function createExplainer(settings?: AiSettings): Explainer {
  return settings ? createOpenAiExplainer(settings) : createBuiltInAnalyst();
}
