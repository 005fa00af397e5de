import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { startAnalytics } from "./analytics/index.ts";
import { App } from "./app.tsx";
import { FeedbackTab } from "./components/feedback-tab.tsx";
import "./styles.css";

// Does nothing (and loads nothing) unless /config.js carries an analytics key.
void startAnalytics();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <App />
    <FeedbackTab />
  </StrictMode>,
);
