/** A caller of the local API as a local tool would be: plain fetch, HTTP Basic with the key and an optional secret. */
export interface ApiAnswer<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export async function callApi<T = unknown>(baseUrl: string, path: string, key?: string, secret = ""): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers.authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;
  const response = await fetch(`${baseUrl}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T };
}
