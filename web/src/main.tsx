import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { startAnalytics } from "./analytics/index.ts";
import { App } from "./app.tsx";
import { FeedbackTab } from "./components/feedback-tab.tsx";
import "./styles.css";

// Does nothing (and loads nothing) unless /config.js carries an analytics key.
void startAnalytics();

// The service worker caches the app shell, never journal data (web/service-worker.js); built apps only.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // Without it the app works the same, only not installable or cached.
    });
  });
}

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <App />
    <FeedbackTab />
  </StrictMode>,
);
