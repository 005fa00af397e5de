import type { Config } from "./config/index.ts";

/**
 * What the browser app reads from /config.js at runtime. The web container writes the same object from
 * its environment (web/write-config-js.sh); the Node entrypoint serves it from Config. Only public
 * values belong here: never a server-side key.
 */
export function browserConfig(config: Config) {
  const analyticsOn = Boolean(config.ANALYTICS_PUBLIC_KEY);
  const survey = config.ANALYTICS_PUBLIC_FEEDBACK_SURVEY;
  return {
    newsletterUrl: config.NEWSLETTER_URL ?? null,
    analytics: {
      key: config.ANALYTICS_PUBLIC_KEY ?? null,
      host: config.ANALYTICS_PUBLIC_HOST ?? null,
      environment: config.ANALYTICS_PUBLIC_ENVIRONMENT ?? null,
      feedbackSurvey: analyticsOn && survey ? `${survey.surveyId}:${survey.ratingQuestionId}:${survey.textQuestionId}` : null,
    },
  };
}

/** The /config.js script; `<` is escaped so no value can close the script element. */
export function browserConfigScript(config: Config): string {
  return `window.__JOURNAL_CONFIG__ = ${JSON.stringify(browserConfig(config)).replace(/</g, "\\u003c")};\n`;
}
