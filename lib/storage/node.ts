import type { Config } from "../config/index.ts";
import { objectStorageSettings, type ObjectStore } from "./index.ts";

/**
 * The Node entrypoint's store: the SDK adapter when the four OBJECT_STORAGE_ variables are set, else none.
 * The SDK is loaded only then: importing it costs ~0.3 s of startup that instances without a bucket skip.
 */
export async function createNodeObjectStore(config: Config): Promise<ObjectStore | undefined> {
  const settings = objectStorageSettings(config);
  if (!settings) return undefined;
  const { createSdkObjectStore } = await import("./s3-sdk.ts");
  return createSdkObjectStore(settings);
}
