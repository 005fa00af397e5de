// What the app's two Lightweight Charts (the equity curve, the trade on its chart) share: colours read from the
// stylesheet (a canvas cannot use var()), and the base options (the library's logo off: it injects an inline
// <style> the content policy refuses; components/chart-attribution.tsx credits TradingView instead).
import type * as LightweightCharts from "lightweight-charts";

/** The chart colours, from the stylesheet's custom properties. */
export function chartPalette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v("--muted", "#4f5963"),
    grid: "#eceff3",
    border: v("--border", "#d0d5dc"),
    positive: v("--positive", "#11682f"),
    negative: v("--negative", "#b42318"),
    primary: v("--primary", "#1d4ed8"),
  };
}

export type ChartPalette = ReturnType<typeof chartPalette>;

/** The options both charts start from: sized by their box, white, the app's text and grid colours. */
export function baseChartOptions(lw: typeof LightweightCharts, colors: ChartPalette) {
  return {
    autoSize: true,
    layout: {
      background: { type: lw.ColorType.Solid, color: "#ffffff" },
      textColor: colors.text,
      fontSize: 12,
      panes: { separatorColor: colors.border },
      attributionLogo: false,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    rightPriceScale: { borderColor: colors.border },
  } as const;
}
