export * from "./endpoint.ts";
export * from "./errors.ts";
export * from "./entities.ts";
export * as calls from "./calls.ts";
export {
  IDENTITY_PROVIDER,
  FINANCE_PROVIDER,
  IDEMPOTENCY_HEADER,
  PASSWORD_POLICY,
  RegistrationPayload,
  IntrinsicValues,
  SummarizeBody,
} from "./calls.ts";
export * from "./ws.ts";
