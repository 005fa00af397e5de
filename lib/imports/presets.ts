// Broker formats the import understands out of the box. A preset names the columns of a broker's
// export and how to read them; the web app matches presets against a file's header row.
import type { ImportMapping, ImportOptions } from "./schema.ts";

export type Preset = {
  id: string;
  name: string;
  /** The header row as the broker writes it (used to auto-detect the preset). */
  headers: string[];
  mapping: ImportMapping;
  options: ImportOptions;
};

export const PRESETS: readonly Preset[] = [
  {
    id: "generic",
    name: "Generic executions (template)",
    headers: ["Date/Time", "Symbol", "Side", "Quantity", "Price", "Fees", "Execution ID"],
    mapping: {
      executedAt: "Date/Time",
      symbol: "Symbol",
      side: "Side",
      quantity: "Quantity",
      price: "Price",
      fees: "Fees",
      executionId: "Execution ID",
    },
    options: { dateFormat: "iso", numberFormat: "1,234.56" },
  },
];

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
