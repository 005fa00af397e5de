import { QueryCache, QueryClient, MutationCache } from "@tanstack/react-query";
import { ApiError } from "./errors.ts";
import { setCsrfToken } from "./client.ts";

export const ME_KEY = ["me"] as const;

/**
 * One cache for the app. A 401 on any request means the session ended (expired, revoked elsewhere):
 * the signed-in user is forgotten, and the route guard sends the reader to sign in.
 */
export function createQueryClient(): QueryClient {
  const onError = (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) {
      setCsrfToken(null);
      client.setQueryData(ME_KEY, null);
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Retrying a 4xx cannot change the answer; a network blip or a 5xx may pass on a second try.
        retry: (count, err) => count < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
      },
    },
  });
  return client;
}
