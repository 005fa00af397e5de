import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FeedbackTab } from "./feedback-tab.tsx";

// The analytics library itself is replaced: these tests check what the form hands to it.
const capture = vi.fn();
vi.mock("../analytics/analytics-client.ts", () => ({ startClient: () => ({ capture }) }));

const SURVEY = { surveyId: "s-1", ratingQuestionId: "q-rating", textQuestionId: "q-text" };
const settings = { key: "phc_x", host: null, environment: null, survey: SURVEY };

afterEach(() => {
  capture.mockClear();
  delete window.__JOURNAL_CONFIG__;
});

describe("the feedback tab", () => {
  it.each([
    ["no key", { analytics: { key: null, host: null, environment: null, feedbackSurvey: "s:r:t" } }],
    ["no survey", { analytics: { key: "phc_x", host: null, environment: null, feedbackSurvey: null } }],
    ["an empty survey", { analytics: { key: "phc_x", host: null, environment: null, feedbackSurvey: "" } }],
    ["a malformed survey", { analytics: { key: "phc_x", host: null, environment: null, feedbackSurvey: "s:r" } }],
    ["no /config.js", undefined],
  ])("does not render with %s", (_name, config) => {
    if (config) window.__JOURNAL_CONFIG__ = config;
    const { container } = render(<FeedbackTab />);
    expect(container.innerHTML).toBe("");
  });

  it("renders from /config.js when a key and a well-formed survey are set", () => {
    window.__JOURNAL_CONFIG__ = { analytics: { key: "phc_x", host: null, environment: null, feedbackSurvey: "s:r:t" } };
    render(<FeedbackTab />);
    expect(screen.getByRole("button", { name: "Feedback" })).toBeTruthy();
  });

  it("asks for a rating, then sends one scrubbed survey answer and thanks the user", async () => {
    const user = userEvent.setup();
    render(<FeedbackTab settings={settings} />);
    await user.click(screen.getByRole("button", { name: "Feedback" }));
    const dialog = screen.getByRole("dialog", { name: "Send feedback" });

    await user.click(screen.getByRole("button", { name: "Send feedback" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Choose a rating from 1 to 5.");
    expect(capture).not.toHaveBeenCalled();

    await user.click(screen.getByRole("radio", { name: "5, excellent" }));
    await user.type(screen.getByLabelText(/Anything else/), "Mail me at a.b@example.com, key sk-live-AbCdEf1234567890XyZ");
    await user.click(screen.getByRole("button", { name: "Send feedback" }));

    expect(await screen.findByText("Thank you for your feedback.")).toBeTruthy();
    expect(capture).toHaveBeenCalledTimes(1);
    const [event, props] = capture.mock.calls[0]!;
    expect(event).toBe("journal feedback");
    expect(props).toMatchObject({
      $survey_id: "s-1",
      $survey_completed: true,
      "$survey_response_q-rating": 5,
      "$survey_response_q-text": "Mail me at [email], key [redacted]",
    });
    expect(JSON.stringify(props)).not.toMatch(/a\.b@example\.com|AbCdEf1234567890/);
    expect(dialog).toBeTruthy();
  });

  it("leaves the text answer out when none is given", async () => {
    const user = userEvent.setup();
    render(<FeedbackTab settings={settings} />);
    await user.click(screen.getByRole("button", { name: "Feedback" }));
    await user.click(screen.getByRole("radio", { name: "2" }));
    await user.click(screen.getByRole("button", { name: "Send feedback" }));
    await waitFor(() => expect(capture).toHaveBeenCalledTimes(1));
    expect(capture.mock.calls[0]![1]).not.toHaveProperty("$survey_response_q-text");
    expect(capture.mock.calls[0]![1]).toMatchObject({ "$survey_response_q-rating": 2 });
  });

  it("closes with Cancel and returns focus to the tab", async () => {
    const user = userEvent.setup();
    render(<FeedbackTab settings={settings} />);
    const tab = screen.getByRole("button", { name: "Feedback" });
    await user.click(tab);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(document.activeElement).toBe(tab));
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
