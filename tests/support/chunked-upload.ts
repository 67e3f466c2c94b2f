import { request } from "node:http";

export interface UploadOutcome {
  /** The answer's status, or 0 when the connection failed without one (`body` says why). */
  status: number;
  body: string;
}

/**
 * POSTs `bytes` of body with chunked transfer encoding (no Content-Length, as a streaming client
 * does), 64 kB at a time, and then waits for the answer WITHOUT ending the body unless `end` is
 * set: a server that reads a body whole before checking its size never answers such a request
 * (the test times out), one that counts while it reads answers once the limit is passed.
 */
export function chunkedUpload(
  url: string,
  options: { bytes: number; contentType: string; end?: boolean },
): Promise<UploadOutcome> {
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve) => {
    let sent = 0;
    let settled = false;
    const settle = (outcome: UploadOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
      req.destroy();
    };
    const req = request(url, {
      method: "POST",
      headers: { "content-type": options.contentType, "transfer-encoding": "chunked" },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => settle({ status: res.statusCode ?? 0, body }));
      res.on("error", () => settle({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (error) => settle({ status: 0, body: error.message }));
    const write = () => {
      while (!settled && sent < options.bytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, options.bytes - sent));
        sent += part.length;
        if (!req.write(part)) {
          req.once("drain", write);
          return;
        }
      }
      if (options.end && !req.writableEnded) req.end();
    };
    write();
  });
}
