// Keep-alive on the Node server (functions/node-server.ts): a connection whose request body was not read.
/** A refused request's body up to this size is read to the end before the answer: the connection stays usable. */
export const DRAIN_LIMIT_BYTES = 64 * 1024;

/**
 * A keep-alive connection whose request body was not read to the end (a 413, or a refusal before the body
 * mattered: a 401, a 503 while the database is away) cannot carry another request. A small body (a declared
 * length up to DRAIN_LIMIT_BYTES) is read to the end first, so the client, still sending it, gets the answer
 * rather than a broken pipe, and the connection goes on. Otherwise the answer says `Connection: close`, so the
 * client opens a new one instead of losing its next request to a socket the server then closes.
 */
export function closeWhenBodyUnread<A extends unknown[]>(fetch: (request: Request, ...rest: A) => Response | Promise<Response>) {
  return async (request: Request, ...rest: A): Promise<Response> => {
    const response = await fetch(request, ...rest);
    const length = Number(request.headers.get("content-length") ?? 0);
    const hasBody = length > 0 || request.headers.has("transfer-encoding");
    if (!hasBody || (request.bodyUsed && response.status !== 413)) return response;
    if (response.status !== 413 && !request.bodyUsed && length > 0 && length <= DRAIN_LIMIT_BYTES && !request.headers.has("transfer-encoding")) {
      try {
        await request.arrayBuffer();
        return response;
      } catch {
        // The client went away mid-body: nothing to keep.
      }
    }
    try {
      response.headers.set("Connection", "close");
    } catch {
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers: [...response.headers, ["Connection", "close"]] });
    }
    return response;
  };
}
