import { describe, expect, it } from "vitest";
import { analyticsSettings, parseFeedbackSurvey } from "./config.ts";

const analytics = (a: Record<string, unknown>) => ({
  newsletterUrl: null,
  analytics: { key: null, host: null, environment: null, feedbackSurvey: null, ...a } as never,
});

describe("parseFeedbackSurvey", () => {
  it("reads <surveyId>:<ratingQuestionId>:<textQuestionId>", () => {
    expect(parseFeedbackSurvey("0190-abc:q1:q2")).toEqual({ surveyId: "0190-abc", ratingQuestionId: "q1", textQuestionId: "q2" });
  });

  it.each([null, undefined, 42, "", "   ", "only-one", "a:b", "a:b:c:d", "a::c", ":b:c", "a:b:", "a b:c:d", "a:b:c\n"])(
    "treats %j as no survey",
    (value) => {
      expect(parseFeedbackSurvey(value)).toBeNull();
    },
  );
});

describe("analyticsSettings", () => {
  it("is null without a key, whatever else is set", () => {
    expect(analyticsSettings(analytics({ host: "https://eu.example.com", feedbackSurvey: "s:r:t" }))).toBeNull();
    expect(analyticsSettings(analytics({ key: "  " }))).toBeNull();
    expect(analyticsSettings({ newsletterUrl: null } as never)).toBeNull();
  });

  it("reads the key, host, environment and survey", () => {
    expect(analyticsSettings(analytics({ key: "phc_x", host: "https://eu.example.com/", environment: "staging", feedbackSurvey: "s:r:t" }))).toEqual({
      key: "phc_x",
      host: "https://eu.example.com",
      environment: "staging",
      survey: { surveyId: "s", ratingQuestionId: "r", textQuestionId: "t" },
    });
  });

  it("drops a malformed survey (no tab) and a non-http host (provider default)", () => {
    expect(analyticsSettings(analytics({ key: "phc_x", host: "javascript:alert(1)", feedbackSurvey: "s:r" }))).toMatchObject({ host: null, survey: null });
  });
});
