import { z } from "zod";
import { SUPPORT_SUBJECTS } from "./support-subjects.ts";

const subjects = SUPPORT_SUBJECTS.map(([value]) => value) as [string, ...string[]];

/** docs/product.md#validation-support: subject is a required choice; message is required. */
export const SupportSchema = z.object({
  subject: z.enum(subjects, { error: "Please choose a subject" }),
  message: z
    .string({ error: "Please write a message" })
    .trim()
    .min(1, "Please write a message")
    .max(5000, "Please keep the message under 5,000 characters"),
});
