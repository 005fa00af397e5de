// The one behaviour every ObjectStore adapter must show, run against the local S3 stand-in: by the SDK
// adapter on Node, and by the fetch adapter on Node and inside workerd. Only the store's own interface is
// used, so the suite runs where the stand-in's memory is out of reach (workerd).
import { describe, expect, it } from "vitest";
import { StorageUnavailableError, type ObjectStorageSettings, type ObjectStore } from "../../lib/storage/index.ts";

export type StoreFactory = (settings: ObjectStorageSettings) => ObjectStore;

/** `settings()` is read when the tests run (the stand-in may start in a beforeAll). */
export function describeObjectStoreContract(name: string, make: StoreFactory, settings: () => ObjectStorageSettings): void {
  describe(`ObjectStore contract: ${name}`, () => {
    const key = (leaf = "staged.json") => `contract/${crypto.randomUUID()}/${leaf}`;

    it("puts, gets and deletes an object; a missing one reads as null and deletes without error", async () => {
      const store = make(settings());
      const k = key();
      const body = JSON.stringify([{ symbol: "ÉTÉ", note: "naïve ✓", n: 1 }]);
      await store.put(k, body);
      expect(await store.get(k)).toBe(body);
      await store.put(k, "[]");
      expect(await store.get(k)).toBe("[]");
      await store.delete(k);
      expect(await store.get(k)).toBeNull();
      await store.delete(k);
      expect(await store.get(key())).toBeNull();
      store.close();
    });

    it("signs keys that need encoding the way the store canonicalises them", async () => {
      const store = make(settings());
      const k = key("a b+c=(1).json");
      await store.put(k, "[1]");
      expect(await store.get(k)).toBe("[1]");
      await store.delete(k);
      expect(await store.get(k)).toBeNull();
      store.close();
    });

    it("carries bytes intact (every byte value, as images are stored) and reads a missing one as null", async () => {
      const store = make(settings());
      const k = key("image");
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 131) % 256);
      await store.put(k, bytes, "image/png");
      expect(Buffer.from((await store.getBytes(k))!).equals(Buffer.from(bytes))).toBe(true);
      await store.delete(k);
      expect(await store.getBytes(k)).toBeNull();
      store.close();
    });

    it("carries a large body intact", async () => {
      const store = make(settings());
      const k = key();
      const body = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ row: i, symbol: "AAPL", price: "170.50" })));
      await store.put(k, body);
      expect(await store.get(k)).toBe(body);
      await store.delete(k);
      store.close();
    });

    it.each([
      ["a wrong secret (bad signature)", (s: ObjectStorageSettings) => ({ ...s, secretAccessKey: `${s.secretAccessKey}x` })],
      ["an unknown access key id", (s: ObjectStorageSettings) => ({ ...s, accessKeyId: "AKIDUNKNOWN" })],
      ["a region the store does not serve", (s: ObjectStorageSettings) => ({ ...s, region: "eu-west-9" })],
      ["a bucket that does not exist", (s: ObjectStorageSettings) => ({ ...s, bucket: "no-such-bucket" })],
    ])("refuses with SERVICE_UNAVAILABLE, never reads as missing, with %s", async (_n, alter) => {
      const good = make(settings());
      const k = key();
      await good.put(k, "[1]");
      const bad = make(alter(settings()));
      for (const attempt of [() => bad.put(key(), "[]"), () => bad.get(k), () => bad.delete(k)]) {
        const err = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(StorageUnavailableError);
        expect((err as StorageUnavailableError).code).toBe("SERVICE_UNAVAILABLE");
        expect((err as StorageUnavailableError).detail).toMatch(/^HTTP (4|5)\d\d/);
        const { secretAccessKey } = settings();
        expect(`${(err as Error).message} ${(err as StorageUnavailableError).detail}`).not.toContain(secretAccessKey);
      }
      expect(await good.get(k)).toBe("[1]");
      await good.delete(k);
      good.close();
      bad.close();
    });

    // Inside workerd, the runtime itself logs "uncaught exception ... Network connection lost" for a fetch to
    // a closed port even though the promise is caught (a plain fetch does the same); the test still holds.
    it("fails fast with SERVICE_UNAVAILABLE when nothing listens at the endpoint", async () => {
      const store = make({ ...settings(), endpoint: "http://127.0.0.1:9" });
      for (const attempt of [() => store.put(key(), "[]"), () => store.get(key()), () => store.delete(key())]) {
        await expect(attempt()).rejects.toBeInstanceOf(StorageUnavailableError);
      }
      store.close();
    });
  });
}
