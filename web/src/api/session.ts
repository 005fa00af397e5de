import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client.ts";
import { ApiError } from "./errors.ts";
import { ME_KEY } from "./query-client.ts";

export type User = { id: string; email: string; emailVerified: boolean; isAdmin: boolean };

/** The signed-in user, or null when there is no session. */
export async function fetchMe(): Promise<User | null> {
  try {
    return (await unwrap(api.api.auth.me.$get())).user;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: 5 * 60_000 });
}

export function usePublicConfig() {
  return useQuery({
    queryKey: ["config", "public"],
    queryFn: () => unwrap(api.api.config.public.$get()),
    staleTime: 5 * 60_000,
  });
}
