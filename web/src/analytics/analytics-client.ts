// The analytics library and its settings. Only ever loaded through a dynamic import (see index.ts), so it
// is a chunk of its own that a deployment without ANALYTICS_PUBLIC_KEY never fetches.
//
// The slim build without external loading: it never injects scripts from the analytics host, and it
// contains only the extensions passed in below (history pageviews and web vitals). Autocapture, session
// replay, surveys, the toolbar and feature flags are not merely switched off, they are not in the bundle.
// Web vitals, which the library would otherwise fetch from the host, come from its own web-vitals bundle.
import posthog from "posthog-js/dist/module.slim.no-external.js";
import { AnalyticsExtensions } from "posthog-js/dist/extension-bundles.js";
import "posthog-js/dist/web-vitals.js";
import type { AnalyticsSettings } from "./config.ts";
import { sanitiseEvent } from "./sanitise.ts";

export type AnalyticsClient = {
  capture(event: string, properties: Record<string, unknown>): void;
};

export function startClient(settings: AnalyticsSettings): AnalyticsClient {
  posthog.init(settings.key, {
    __extensionClasses: {
      historyAutocapture: AnalyticsExtensions.historyAutocapture,
      webVitalsAutocapture: AnalyticsExtensions.webVitalsAutocapture,
    },
    ...(settings.host ? { api_host: settings.host } : {}),
    // Nothing survives the page: no cookie, no localStorage, no sessionStorage. Every load is a new,
    // anonymous visitor, and no person profile is ever made.
    persistence: "memory",
    cross_subdomain_cookie: false,
    person_profiles: "never",
    internal_or_test_user_hostname: null,
    // Pageviews: the first load and every client-side route change (react-router pushes history).
    capture_pageview: "history_change",
    capture_pageleave: false,
    // Web vitals without attribution (attribution would add element selectors of the page).
    capture_performance: { web_vitals: true, web_vitals_attribution: false, network_timing: false },
    // Everything else off.
    autocapture: false,
    rageclick: false,
    capture_dead_clicks: false,
    capture_heatmaps: false,
    capture_exceptions: false,
    disable_session_recording: true,
    disable_surveys: true,
    disable_surveys_automatic_display: true,
    disable_product_tours: true,
    disable_conversations: true,
    disable_web_experiments: true,
    // No /flags (and so no remote config) request: feature flags are not used.
    advanced_disable_flags: true,
    advanced_disable_feature_flags: true,
    disable_external_dependency_loading: true,
    disableDeviceModel: true,
    save_campaign_params: false,
    disable_capture_url_hashes: true,
    before_send: (event) => sanitiseEvent(event, settings.environment),
  });
  return { capture: (event, properties) => void posthog.capture(event, properties, { send_instantly: true }) };
}
