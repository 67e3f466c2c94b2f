/**
 * Large broker files for the import's load test and bench (docs/decisions/0073-imports-in-linear-time.md):
 * an Interactive Brokers activity statement with `lines` share trades, each one valid — on 20
 * tickers in turn, 10 shares bought and, on the next round, sold — a minute apart through 2025.
 */
const TICKERS = ["KO", "PEP", "T", "VZ", "XOM", "CVX", "JNJ", "PG", "MO", "PM"].flatMap((t) => [t, `${t}X`]);

export function largeIbkrFile(lines: number): string {
  const out = [
    "Statement,Header,Field Name,Field Value",
    "Statement,Data,Title,Activity Statement",
    "Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code",
  ];
  const start = Date.UTC(2025, 0, 2, 14, 30);
  for (let i = 0; i < lines; i++) {
    const ticker = TICKERS[i % TICKERS.length]!;
    const buy = Math.floor(i / TICKERS.length) % 2 === 0;
    const when = new Date(start + i * 60_000).toISOString();
    const stamp = `${when.slice(0, 10)}, ${when.slice(11, 19)}`;
    const price = (40 + (i % 97) / 10).toFixed(2);
    const quantity = buy ? 10 : -10;
    const proceeds = (-quantity * Number(price)).toFixed(2);
    out.push(
      `Trades,Data,Order,Stocks,USD,${ticker},"${stamp}",${quantity},${price},${price},${proceeds},-1,${-Number(proceeds)},0,0,${buy ? "O" : "C"}`,
    );
  }
  return out.join("\n") + "\n";
}

/**
 * The same share trades as an OFX 1.x (SGML) investment statement with `lines` BUYSTOCK/SELLSTOCK
 * aggregates (docs/decisions/0089-ofx-investment-statements.md); about 200 bytes each, so a file
 * under the 1 MB body limit holds some 4,500.
 */
export function largeOfxFile(lines: number): string {
  const out = [
    "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\n",
    "<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><TRNUID>1<INVSTMTRS><DTASOF>20251231<CURDEF>USD<INVTRANLIST>",
  ];
  const start = Date.UTC(2025, 0, 2, 14, 30);
  for (let i = 0; i < lines; i++) {
    const ticker = TICKERS[i % TICKERS.length]!;
    const buy = Math.floor(i / TICKERS.length) % 2 === 0;
    const stamp = new Date(start + i * 60_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
    const price = (40 + (i % 97) / 10).toFixed(2);
    const [tag, agg] = buy ? ["BUYSTOCK", "INVBUY"] : ["SELLSTOCK", "INVSELL"];
    out.push(
      `<${tag}><${agg}><INVTRAN><FITID>T${i}<DTTRADE>${stamp}</INVTRAN><SECID><UNIQUEID>${ticker}<UNIQUEIDTYPE>TICKER</SECID><UNITS>${buy ? 10 : -10}<UNITPRICE>${price}<COMMISSION>1<TOTAL>0</${agg}></${tag}>`,
    );
  }
  out.push("</INVTRANLIST></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1><SECLISTMSGSRSV1><SECLIST>");
  for (const ticker of TICKERS)
    out.push(
      `<STOCKINFO><SECINFO><SECID><UNIQUEID>${ticker}<UNIQUEIDTYPE>TICKER</SECID><TICKER>${ticker}</SECINFO></STOCKINFO>`,
    );
  out.push("</SECLIST></SECLISTMSGSRSV1></OFX>");
  return out.join("\n") + "\n";
}
