import type { TokenCipher } from "./token-cipher.ts";

/** How the provider reaches Tradier's brokerage API and seals its tokens (ADR 0075, 0093). */
export interface BrokerSettings {
  cipher: TokenCipher;
  /** TRADIER_BROKERAGE_URL (the sandbox, or a fake in tests). */
  tradierUrl: string;
  fetch?: typeof fetch | undefined;
}
