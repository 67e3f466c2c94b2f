/**
 * The explainer port: writes the AI texts of docs/product.md#states-ai (the UIP list's AI analysis, the option
 * detail's explanation) from the facts the provider gathered. Two implementations: the built-in
 * analyst (default, offline) and an OpenAI-compatible chat-completions client (AI_BASE_URL).
 */
import { HttpError } from "#provider/http/errors.ts";
import type { RecommendationFacts, StockFacts } from "./facts-derive.ts";

export interface Explainer {
  readonly kind: "built-in" | "openai-compatible";
  /**
   * The text in pieces, as it is written. Throws `AiError` when it cannot be written; `signal`
   * aborts when the reader went away (the piece being produced may still arrive).
   */
  stockAnalysis(facts: StockFacts, signal: AbortSignal): AsyncIterable<string>;
  recommendationSummary(facts: RecommendationFacts, signal: AbortSignal): AsyncIterable<string>;
}

/**
 * The explanation could not be written: before any text this is the HTTP answer (502 for a
 * vendor failure or an empty answer, 504 for a timeout); after some text it ends the stream
 * with a line that says so.
 */
export class AiError extends HttpError {
  constructor(status: 502 | 504, detail: string) {
    super(status, detail);
    this.name = "AiError";
  }
}

/** Settings of the OpenAI-compatible client (AI_BASE_URL, AI_API_KEY, AI_MODEL, AI_TIMEOUT_MS). */
export interface AiSettings {
  /** e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama). */
  baseUrl: string;
  /** Sent as a bearer token; local servers often need none. */
  apiKey?: string | undefined;
  model: string;
  /** Longest wait for the answer to start and between two pieces of it; 30 000 ms when omitted. */
  timeoutMs?: number | undefined;
}
