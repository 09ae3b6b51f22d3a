import { z } from "zod";

/** API keys travel in URL paths and Basic credentials, so they are URL-safe and contain no colon. */
export const apiKeyValueSchema = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, "an API key is 16 to 128 characters of A-Z, a-z, 0-9, _ and -");
