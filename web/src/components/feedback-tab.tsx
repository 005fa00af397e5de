import { useId, useRef, useState, type FormEvent } from "react";
import {
  analyticsSettings,
  FEEDBACK_MAX_LENGTH,
  RATING_QUESTION,
  sendFeedback,
  TEXT_QUESTION,
  type AnalyticsSettings,
} from "../analytics/index.ts";
import "./feedback-tab.css";

const RATINGS = [1, 2, 3, 4, 5] as const;

/**
 * A "Feedback" tab fixed to the corner of every page, opening a short form: a 1-5 rating and optional
 * text, sent as one anonymous survey answer. Renders nothing unless analytics has a key and a
 * well-formed feedback survey (SPEC.md: absent, empty or malformed means no tab).
 */
export function FeedbackTab({ settings = analyticsSettings() }: { settings?: AnalyticsSettings | null }) {
  return settings?.survey ? <FeedbackDialog settings={settings} /> : null;
}

type Status = "editing" | "sending" | "sent" | "failed";

function FeedbackDialog({ settings }: { settings: AnalyticsSettings }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const tabRef = useRef<HTMLButtonElement>(null);
  const firstRadioRef = useRef<HTMLInputElement>(null);
  const [rating, setRating] = useState<number | null>(null);
  const [text, setText] = useState("");
  const [status, setStatus] = useState<Status>("editing");
  const [ratingMissing, setRatingMissing] = useState(false);
  const id = useId();

  const open = () => {
    setStatus("editing");
    setRatingMissing(false);
    // A modal <dialog> keeps focus inside itself and closes on Escape without extra code.
    dialogRef.current?.showModal();
  };
  const close = () => dialogRef.current?.close();
  const onClosed = () => {
    if (status === "sent") {
      setRating(null);
      setText("");
      setStatus("editing");
    }
    tabRef.current?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (rating === null) {
      setRatingMissing(true);
      firstRadioRef.current?.focus();
      return;
    }
    setStatus("sending");
    setStatus((await sendFeedback(settings, { rating, text })) ? "sent" : "failed");
  };

  const titleId = `${id}-title`;
  const errorId = `${id}-rating-error`;
  return (
    <aside className="feedback-tab" aria-label="Feedback">
      <button ref={tabRef} type="button" className="feedback-tab__button" aria-haspopup="dialog" onClick={open}>
        Feedback
      </button>
      <dialog ref={dialogRef} className="feedback-dialog" aria-labelledby={titleId} onClose={onClosed}>
        <h2 id={titleId} className="feedback-dialog__title">
          Send feedback
        </h2>
        {status === "sent" ? (
          <div className="feedback-dialog__thanks">
            <p role="status">Thank you for your feedback.</p>
            <div className="button-row">
              <button type="button" className="button" onClick={close} autoFocus>
                Close
              </button>
            </div>
          </div>
        ) : (
          <form onSubmit={(e) => void submit(e)} noValidate>
            <p className="feedback-dialog__note">
              Anonymous: no account or email is attached. Email addresses and anything that looks like a key or
              token are removed from your text before it is sent.
            </p>
            <fieldset className="feedback-dialog__rating" aria-describedby={ratingMissing ? errorId : undefined}>
              <legend>{RATING_QUESTION}</legend>
              <p className="feedback-dialog__scale" aria-hidden="true">
                <span>1 = poor</span>
                <span>5 = excellent</span>
              </p>
              <div className="feedback-dialog__choices">
                {RATINGS.map((value) => (
                  <label key={value} className="feedback-dialog__choice">
                    <input
                      ref={value === 1 ? firstRadioRef : undefined}
                      type="radio"
                      name={`${id}-rating`}
                      value={value}
                      checked={rating === value}
                      onChange={() => {
                        setRating(value);
                        setRatingMissing(false);
                      }}
                      aria-label={value === 1 ? "1, poor" : value === 5 ? "5, excellent" : String(value)}
                    />
                    <span aria-hidden="true">{value}</span>
                  </label>
                ))}
              </div>
              {ratingMissing && (
                <p className="field__error" id={errorId} role="alert">
                  Choose a rating from 1 to 5.
                </p>
              )}
            </fieldset>
            <div className="field">
              <label htmlFor={`${id}-text`}>{TEXT_QUESTION} (optional)</label>
              <textarea
                id={`${id}-text`}
                rows={4}
                maxLength={FEEDBACK_MAX_LENGTH}
                value={text}
                onChange={(e) => setText(e.target.value)}
              />
            </div>
            {status === "failed" && (
              <p className="field__error" role="alert">
                Your feedback could not be sent. Please try again later.
              </p>
            )}
            <div className="button-row">
              <button type="submit" className="button" disabled={status === "sending"}>
                {status === "sending" ? "Sending…" : "Send feedback"}
              </button>
              <button type="button" className="button button--secondary" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        )}
      </dialog>
    </aside>
  );
}
