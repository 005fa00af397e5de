// The browser's side of passkeys (docs/auth.md, "Passkeys"): @simplewebauthn/browser turns the server's JSON
// options into navigator.credentials calls and their answers back into JSON. Loaded only when a passkey button is
// used, so the first page does not carry it.
import { api, unwrap } from "../api/client.ts";

type SignedIn = { user: { id: string; email: string; emailVerified: boolean; isAdmin: boolean }; csrfToken?: string };

/** Whether this browser can use passkeys at all (a button is shown only then). */
export function passkeysSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** Adds a passkey to the signed-in account: the server's options, the authenticator, the answer. */
export async function addPasskey(name: string) {
  const { startRegistration } = await import("@simplewebauthn/browser");
  const { flowId, options } = await unwrap(api.api.passkeys.options.$post());
  const credential = await startRegistration({ optionsJSON: options as never });
  return unwrap(api.api.passkeys.$post({ json: { flowId, name, credential: credential as never } }));
}

/** Signs in with a passkey alone. */
export async function signInWithPasskey(): Promise<SignedIn> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const { flowId, options } = await unwrap(api.api.passkeys["sign-in"].options.$post());
  const credential = await startAuthentication({ optionsJSON: options as never });
  return unwrap(api.api.passkeys["sign-in"].$post({ json: { flowId, credential: credential as never } }));
}

/** Answers a password sign-in's second step with a passkey. */
export async function secondStepWithPasskey(challenge: string): Promise<SignedIn> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const options = await unwrap(api.api.passkeys["second-step"].options.$post({ json: { challenge } }));
  const credential = await startAuthentication({ optionsJSON: options as never });
  return unwrap(api.api.passkeys["second-step"].$post({ json: { challenge, credential: credential as never } }));
}

/** What a failed ceremony tells the trader: the browser's cancel is not an error worth a stack of words. */
export function passkeyProblem(error: unknown): string | null {
  if (!error) return null;
  const name = (error as { name?: string }).name;
  if (name === "NotAllowedError" || name === "AbortError") return "The passkey prompt was closed or timed out. Try again.";
  if (name === "InvalidStateError") return "This passkey is already registered on this account.";
  return null;
}
