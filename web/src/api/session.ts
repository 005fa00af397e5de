import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "./client.ts";
import { ME_KEY } from "./query-client.ts";

export type User = { id: string; email: string; emailVerified: boolean; isAdmin: boolean };

/**
 * The signed-in user, or null when there is no session. /api/auth/session answers 200 either way (a 401
 * from /me would show as a failed request in the console on every signed-out page load).
 */
export async function fetchMe(): Promise<User | null> {
  return (await unwrap(api.api.auth.session.$get())).user;
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
