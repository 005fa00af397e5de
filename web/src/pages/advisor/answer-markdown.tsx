// An advisor answer as safe markdown: raw HTML is shown as text, images are dropped (a model-written image URL
// could carry journal data to a third party), `trade:ID` links open the trade in the app (the citations the
// advisor is asked to write), http(s) links open outside the app, anything else is plain text.
import Markdown from "markdown-to-jsx/react";
import type { ReactNode } from "react";
import { Link } from "react-router";

const TRADE_LINK = /^trade:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

function AnswerLink({ href, children }: { href?: string; children?: ReactNode }) {
  const trade = href ? TRADE_LINK.exec(href) : null;
  if (trade) {
    return (
      <Link to={`/trades/${trade[1]!.toLowerCase()}`} className="citation">
        {children}
      </Link>
    );
  }
  if (href && /^https?:\/\//i.test(href)) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  }
  return <>{children}</>;
}

const OPTIONS = {
  disableParsingRawHTML: true,
  forceBlock: true,
  overrides: { a: AnswerLink, img: () => null },
};

export function AnswerMarkdown({ text }: { text: string }) {
  return (
    <div className="answer">
      <Markdown options={OPTIONS}>{text}</Markdown>
    </div>
  );
}
