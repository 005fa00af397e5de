// The setup link's port (lib/deps.ts composes it; lib/admin/setup.ts opens and uses it): the digest of the
// one-time token a Node start without an administrator printed, null once used.
export type SetupLink = { digest: Buffer | null };
