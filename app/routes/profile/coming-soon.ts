/** docs/product.md#screens-profile: the buttons, by card, whose actions are not part of the product yet. */
export const COMING_SOON = {
  security: ["Change Password", "Two-Factor Authentication", "Privacy Settings"],
  help: ["FAQ & Help Center", "Trading Guide"],
  quick: ["View Statements", "Tax Documents", "Account Settings"],
} as const;

/** What a tap on one of them says, in place with the scripts and as a flash toast without. */
export const comingSoonText = (label: string) => `${label} is coming soon.`;
