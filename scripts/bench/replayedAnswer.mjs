// The answer the bare servers of the wrk bench replay (bareReplayServer.mjs, inProcessBareServer.mjs): what gasfees
// answered one GET of `url` with (sent with `authorization`), as the status 200's header names as written (node:http
// writes Date, Connection and Keep-Alive itself, so those are left out) and the body.
import { request } from "node:http";

/** Resolves with `{ headers, body }`; rejects on a network error or a status other than 200. */
export function replayedAnswer(url, authorization) {
  return new Promise((resolve, reject) => {
    request(url, { headers: { authorization } }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`${url.pathname}: ${res.statusCode}`));
        // The names as gasfees wrote them (res.headers would lower-case them), so that the bytes are the same.
        const headers = {};
        for (let index = 0; index < res.rawHeaders.length; index += 2) {
          const name = res.rawHeaders[index];
          if (!["connection", "keep-alive", "date"].includes(name.toLowerCase())) headers[name] = res.rawHeaders[index + 1];
        }
        resolve({ headers, body: Buffer.concat(chunks) });
      });
    })
      .on("error", reject)
      .end();
  });
}
