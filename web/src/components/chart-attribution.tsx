// The attribution TradingView's Lightweight Charts licence asks for, as a line of text under each chart. The
// library's own logo is turned off (layout.attributionLogo: false) because it injects an inline <style>
// element, which the app's content policy (style-src 'self') refuses.
export function ChartAttribution() {
  return (
    <p className="chart-attribution">
      Chart by{" "}
      <a href="https://www.tradingview.com/lightweight-charts/" target="_blank" rel="noopener noreferrer">
        TradingView Lightweight Charts™
      </a>
    </p>
  );
}
