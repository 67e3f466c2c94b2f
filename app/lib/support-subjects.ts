/** docs/product.md#validation-support: subjects, value and label. */
export const SUPPORT_SUBJECTS = [
  ["account", "Account"],
  ["trading", "Trading"],
  ["technical", "Technical"],
  ["billing", "Billing"],
  ["feature", "Feature Request"],
  ["other", "Other"],
] as const;
