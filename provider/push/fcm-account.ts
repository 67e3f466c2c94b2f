import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";

/** What the FCM sender needs of a Firebase service account key (the JSON file the console downloads). */
export interface FcmServiceAccount {
  projectId: string;
  clientEmail: string;
  /** PEM (PKCS#8) RSA private key that signs the OAuth assertion. */
  privateKey: string;
  /** The key's id, sent as the JWT `kid` when the file names it. */
  privateKeyId?: string | undefined;
}

const KeyFile = z.object({
  type: z.literal("service_account", "is not a service account key (type must be service_account)").optional(),
  project_id: z.string("project_id is missing").min(1, "project_id is missing"),
  client_email: z.email("client_email is missing or not an email address"),
  private_key: z.string("private_key is missing").min(1, "private_key is missing"),
  private_key_id: z.string().optional(),
});

/**
 * FIREBASE_SERVICE_ACCOUNT: the service account key file's JSON itself (a secret store, a container
 * platform's variable) or the path of that file (a mounted secret), as GOOGLE_APPLICATION_CREDENTIALS
 * takes it. Messages name what is wrong, never the key.
 */
export function readFcmServiceAccount(value: string): { account: FcmServiceAccount } | { error: string } {
  let text = value.trim();
  if (!text.startsWith("{")) {
    try {
      text = readFileSync(text, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      return { error: `neither service account JSON nor a readable file (${value.trim()}: ${code})` };
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error: it could be a piece of the key.
    return { error: "not valid JSON" };
  }
  const parsed = KeyFile.safeParse(json);
  if (!parsed.success) return { error: parsed.error.issues.map((i) => i.message).join("; ") };
  // Platforms that flatten variables to one line often leave the key's newlines as the two characters \n.
  const privateKey = parsed.data.private_key.replace(/\\n/g, "\n");
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== "rsa") return { error: "private_key is not an RSA key" };
  } catch {
    return { error: "private_key is not a PEM private key" };
  }
  return {
    account: {
      projectId: parsed.data.project_id,
      clientEmail: parsed.data.client_email,
      privateKey,
      privateKeyId: parsed.data.private_key_id,
    },
  };
}
