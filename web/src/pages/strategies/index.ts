// The option strategies screens, one lazily loaded chunk (docs/options.md).
import "./strategies.css";
export { StrategiesPage } from "./strategies-page.tsx";
export { StrategyPage } from "./strategy-page.tsx";
