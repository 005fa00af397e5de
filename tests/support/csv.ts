// CSV files for import tests, in the generic preset's format.
export const GENERIC_HEADER = "Date/Time,Symbol,Side,Quantity,Price,Fees,Execution ID";

/** Two round trips: AAPL (stock) and ESZ26 (future), naive and offset timestamps, CRLF line ends. */
export const GENERIC_SAMPLE = [
  GENERIC_HEADER,
  "2026-03-02T09:31:00,AAPL,BUY,100,170.50,1.00,E1",
  "2026-03-02T10:15:00,AAPL,SELL,100,172.25,1.00,E2",
  "2026-03-02T11:00:00-05:00,ESZ26,SLD,1,6000.25,2.25,E3",
  "2026-03-02T11:30:00-05:00,ESZ26,BOT,1,5990,2.25,E4",
].join("\r\n");
