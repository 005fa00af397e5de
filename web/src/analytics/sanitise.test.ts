import { describe, expect, it } from "vitest";
import { referrerHostname, sanitiseEvent, stripFragment } from "./sanitise.ts";

describe("stripFragment", () => {
  it("removes the fragment and keeps the query string", () => {
    expect(stripFragment("https://j.example.com/trades?page=2&sort=pnl#row-7")).toBe("https://j.example.com/trades?page=2&sort=pnl");
    expect(stripFragment("https://j.example.com/a")).toBe("https://j.example.com/a");
  });
});

describe("referrerHostname", () => {
  it.each([
    ["https://news.example.com/article/42?utm_source=x#top", "news.example.com"],
    ["http://localhost:5173/sign-in", "localhost"],
    ["news.example.com:8443", "news.example.com"],
    ["news.example.com", "news.example.com"],
    ["$direct", "$direct"],
    ["", ""],
  ])("reduces %j to %j", (input, expected) => {
    expect(referrerHostname(input)).toBe(expected);
  });
});

describe("sanitiseEvent", () => {
  const pageview = {
    uuid: "u",
    event: "$pageview",
    properties: {
      $current_url: "https://j.example.com/trades?page=2#secret",
      $pathname: "/trades",
      $referrer: "https://news.example.com/article/42?q=1",
      $referring_domain: "news.example.com",
      $session_entry_referrer: "https://news.example.com/article/42?q=1",
      $session_entry_url: "https://j.example.com/sign-in?from=mail#frag",
      nested: { $web_vitals_LCP_event: { $current_url: "https://j.example.com/#x" } },
      note: "a # that is not a URL",
    },
    $set: { $survey_responded: true },
    $set_once: { $initial_referrer: "https://news.example.com/a" },
  };

  it("strips fragments from every URL, keeps queries, reduces referrers, and drops person properties", () => {
    const out = sanitiseEvent(pageview, "production")!;
    expect(out.properties).toMatchObject({
      $current_url: "https://j.example.com/trades?page=2",
      $referrer: "news.example.com",
      $referring_domain: "news.example.com",
      $session_entry_referrer: "news.example.com",
      $session_entry_url: "https://j.example.com/sign-in?from=mail",
      nested: { $web_vitals_LCP_event: { $current_url: "https://j.example.com/" } },
      note: "a # that is not a URL",
      $geoip_disable: true,
      environment: "production",
    });
    expect(out).not.toHaveProperty("$set");
    expect(out).not.toHaveProperty("$set_once");
  });

  it("leaves the environment out when none is configured", () => {
    expect(sanitiseEvent(pageview, null)!.properties).not.toHaveProperty("environment");
  });

  it("drops events other than pageviews, web vitals and feedback, and names feedback as a survey response", () => {
    for (const event of ["$autocapture", "$rageclick", "$pageleave", "$exception", "$identify", "survey sent"]) {
      expect(sanitiseEvent({ event, properties: {} }, null), event).toBeNull();
    }
    expect(sanitiseEvent({ event: "$web_vitals", properties: {} }, null)?.event).toBe("$web_vitals");
    expect(sanitiseEvent({ event: "journal feedback", properties: {} }, null)?.event).toBe("survey sent");
  });
});

describe("a public link's page", () => {
  it("never sends the link's token: /s/<token> becomes /s/:token in every URL and path", () => {
    const token = "Q2hpY2tlbnMtYXJlLW5vdC1wYXNzd29yZHMtYnV0LXRoaXM";
    const out = sanitiseEvent(
      { uuid: "u", event: "$pageview", properties: { $current_url: `https://j.example.com/s/${token}#x`, $pathname: `/s/${token}`, nested: { url: `https://j.example.com/s/${token}` } } },
      "production",
    )!;
    expect(JSON.stringify(out)).not.toContain(token);
    expect(out.properties).toMatchObject({ $current_url: "https://j.example.com/s/:token", $pathname: "/s/:token", nested: { url: "https://j.example.com/s/:token" } });
  });
});
