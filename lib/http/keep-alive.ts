// Keep-alive on the Node server (functions/node-server.ts): a connection whose request body was not read.
/**
 * A keep-alive connection whose request body was not read to the end (a 413, or a refusal before the body
 * mattered) cannot carry another request: say `Connection: close`, so the client opens a new one instead of
 * losing its next request to a socket the server then closes.
 */
export function closeWhenBodyUnread<A extends unknown[]>(fetch: (request: Request, ...rest: A) => Response | Promise<Response>) {
  return async (request: Request, ...rest: A): Promise<Response> => {
    const response = await fetch(request, ...rest);
    const hasBody = Number(request.headers.get("content-length") ?? 0) > 0 || request.headers.has("transfer-encoding");
    if (hasBody && (response.status === 413 || !request.bodyUsed)) {
      try {
        response.headers.set("Connection", "close");
      } catch {
        return new Response(response.body, { status: response.status, statusText: response.statusText, headers: [...response.headers, ["Connection", "close"]] });
      }
    }
    return response;
  };
}
