// Trade screenshots in Chromium against the real Node entrypoint: an image pasted on the trade page is
// uploaded and shown as a thumbnail (decoded by the browser, so the stored bytes are a real image); a picked
// file is added too; the viewer moves between images with the arrow keys and deletes after a confirmation.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { pngImage } from "../support/images.ts";
import { signedInTrader, type TraderPage } from "./browser.ts";

describe("screenshots on the trade page", () => {
  let t: TraderPage;
  let tradeId = "";
  const base = () => inject("baseUrl");

  beforeAll(async () => {
    t = await signedInTrader(base(), "shots");
    const account = await t.context.request.post(`${base()}/api/accounts`, { data: { name: "Charts", currency: "USD" } });
    const accountId = ((await account.json()) as { id: string }).id;
    await t.context.request.post(`${base()}/api/fills`, {
      data: { accountId, symbol: "NVDA", side: "buy", quantity: "5", price: "120", executedAt: "2026-03-02T15:00:00Z" },
    });
    const trades = (await (await t.context.request.get(`${base()}/api/trades?accountId=${accountId}`)).json()) as { trades: Array<{ id: string }> };
    tradeId = trades.trades[0]!.id;
  }, 60_000);
  afterAll(() => t?.browser.close());

  it("a pasted image appears as a thumbnail the browser can draw", async () => {
    const { page } = t;
    await page.goto(`${base()}/trades/${tradeId}`);
    await page.getByRole("heading", { name: "Screenshots" }).waitFor();
    const b64 = pngImage({ width: 120, height: 80, rgb: [200, 30, 30], metadata: true }).toString("base64");
    await page.evaluate((data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const clipboard = new DataTransfer();
      clipboard.items.add(new File([bytes], "image.png", { type: "image/png" }));
      document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: clipboard, bubbles: true, cancelable: true }));
    }, b64);
    const thumb = page.getByRole("button", { name: "Open screenshot 1 of 1" });
    await thumb.waitFor();
    // Thumbnails load lazily: the screenshots are below the chart.
    await thumb.scrollIntoViewIfNeeded();
    await expect.poll(() => thumb.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
    await page.getByText("Image added.").waitFor();
  });

  it("a picked file is added; the viewer steps with the arrow keys and deletes after confirming", async () => {
    const { page } = t;
    await page.getByLabel("Add screenshots").setInputFiles({ name: "second.png", mimeType: "image/png", buffer: pngImage({ width: 90, height: 60, rgb: [20, 160, 60] }) });
    await page.getByRole("button", { name: "Open screenshot 2 of 2" }).waitFor();
    await page.getByRole("button", { name: "Open screenshot 1 of 2" }).click();
    const viewer = page.getByRole("dialog", { name: "Screenshot 1 of 2" });
    await viewer.waitFor();
    await page.keyboard.press("ArrowRight");
    await page.getByRole("dialog", { name: "Screenshot 2 of 2" }).waitFor();
    await expect.poll(() => page.locator(".viewer__image").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(90);
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Screenshot 1 of 1" }).waitFor();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    expect(await page.getByRole("button", { name: /Open screenshot/ }).count()).toBe(1);
    const list = (await (await t.context.request.get(`${base()}/api/trades/${tradeId}/images`)).json()) as { images: unknown[] };
    expect(list.images).toHaveLength(1);
    expect(t.errors).toEqual([]);
  });

  it("a file that is not an image is refused with a plain message and nothing is uploaded", async () => {
    const { page } = t;
    await page.getByLabel("Add screenshots").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await page.getByText("Only PNG, JPEG and WebP images can be added.").waitFor();
    expect(await page.getByRole("button", { name: /Open screenshot/ }).count()).toBe(1);
  });
});
