import { z } from "zod";

/**
 * The account fields shared by the provider's validation and the sign-up and reset forms.
 * Kept apart from calls.ts so the /login page can use them without bundling every call's schema.
 */

export const Username = z
  .string()
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(40, "Username must be at most 40 characters")
  .regex(/^[A-Za-z0-9_.-]+$/, "Username may contain letters, digits, '.', '_' and '-'");

/** The password policy, stated in the detail when violated. */
const PASSWORD_POLICY = "Password must be 8 to 128 characters and contain a letter and a digit";
/** One check, so a password that breaks several parts of the policy gets the sentence once. */
export const NewPassword = z
  .string()
  .refine((v) => v.length >= 8 && v.length <= 128 && /[A-Za-z]/.test(v) && /\d/.test(v), PASSWORD_POLICY);

export const Email = z.string().trim().toLowerCase().email("Enter a valid email address").max(254);
