/**
 * The public site's content-page kit (src/ui/site/README.md): one h1 and its lead, sections whose
 * h2 carry anchors, an optional table of contents built from those sections, and a list of
 * related pages. Pure render: no window, document, storage or timers, so pages built on it
 * prerender at build time and hydrate unchanged.
 */
import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import * as css from "./site.css";

/** One section of a content page: an `<h2 id>` (the anchor the table of contents links to) and its body. */
export interface SiteSection {
  /** The anchor: unique on the page, stable across locales (`#fees` links keep working). */
  readonly id: string;
  readonly title: ReactNode;
  readonly content: ReactNode;
}

/** A link in the "related pages" list at the foot of a page. */
export interface RelatedLink {
  readonly href: string;
  readonly label: ReactNode;
  readonly description?: ReactNode;
}

export interface ContentPageProps {
  /** The page's only h1. */
  readonly title: ReactNode;
  /** One or two sentences under the h1: what the page is for. */
  readonly lead?: ReactNode;
  /** Calls to action under the lead (links styled with `css.cta` of src/pages/pages.css.ts). */
  readonly actions?: ReactNode;
  /** Free content between the header and the sections: a search box, a form, a live table. */
  readonly children?: ReactNode;
  /** The page's sections, rendered in order after `children`. */
  readonly sections?: readonly SiteSection[];
  /** Show an "On this page" list of the sections; by default when there are three or more. */
  readonly toc?: boolean;
  readonly related?: readonly RelatedLink[];
}

export function ContentPage({ title, lead, actions, children, sections = [], toc, related }: ContentPageProps) {
  const showToc = toc ?? sections.length >= 3;
  return (
    <div className={showToc ? css.page : css.pageNoToc}>
      <header className={css.header}>
        <h1 className={css.h1}>{title}</h1>
        {lead !== undefined && <p className={css.lead}>{lead}</p>}
        {actions !== undefined && <div className={css.actions}>{actions}</div>}
      </header>
      {showToc && sections.length > 0 && <TableOfContents sections={sections} />}
      <div className={css.body}>
        {children}
        {sections.map((s) => (
          <ContentSection key={s.id} id={s.id} title={s.title}>
            {s.content}
          </ContentSection>
        ))}
        {related !== undefined && related.length > 0 && <RelatedLinks links={related} />}
      </div>
    </div>
  );
}

/** A section with an anchored h2, for pages that lay out their sections by hand. */
export function ContentSection({
  id,
  title,
  children,
}: {
  readonly id: string;
  readonly title: ReactNode;
  readonly children: ReactNode;
}) {
  return (
    <section className={css.section} aria-labelledby={id}>
      <h2 className={css.h2} id={id}>
        {title}
      </h2>
      <div className={css.prose}>{children}</div>
    </section>
  );
}

/** "On this page": same-page links, which the router leaves to the browser (docs/product-rules.md). */
export function TableOfContents({ sections }: { readonly sections: readonly Pick<SiteSection, "id" | "title">[] }) {
  const { t } = useLingui();
  const label = t`On this page`;
  return (
    <nav className={css.toc} aria-label={label}>
      <p className={css.tocTitle}>{label}</p>
      <ul className={css.tocList}>
        {sections.map((s) => (
          <li key={s.id}>
            <a className={css.tocLink} href={`#${s.id}`}>
              {s.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function RelatedLinks({ links }: { readonly links: readonly RelatedLink[] }) {
  const { t } = useLingui();
  const label = t`Related pages`;
  return (
    <nav className={css.related} aria-labelledby="related-pages">
      <h2 className={css.h2} id="related-pages">
        {label}
      </h2>
      <ul className={css.relatedList}>
        {links.map((l) => (
          <li key={l.href}>
            <a className={css.relatedLink} href={l.href}>
              {l.label}
              {l.description !== undefined && <span className={css.relatedDescription}>{l.description}</span>}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A question and its answer. */
export interface FaqEntry {
  /** Stable across locales; also the element id, so an answer can be linked to. */
  readonly id: string;
  readonly question: ReactNode;
  readonly answer: ReactNode;
}

/**
 * Questions as native disclosures (`<details>`): keyboard and screen-reader behaviour come from the
 * browser, and the answers are in the prerendered HTML for search engines. `open` lists the ids
 * shown expanded (a search's matches, say).
 */
export function FaqList({ items, open }: { readonly items: readonly FaqEntry[]; readonly open?: ReadonlySet<string> }) {
  return (
    <div className={css.faq}>
      {items.map((item) => (
        <details key={item.id} id={item.id} className={css.faqItem} open={open?.has(item.id)}>
          <summary className={css.faqQuestion}>{item.question}</summary>
          <div className={css.faqAnswer}>{item.answer}</div>
        </details>
      ))}
    </div>
  );
}

/** A highlighted note: "info" (accent border) or "warning". */
export function Callout({
  tone = "info",
  children,
}: {
  readonly tone?: "info" | "warning";
  readonly children: ReactNode;
}) {
  return <div className={tone === "warning" ? css.calloutWarning : css.callout}>{children}</div>;
}

/** Key facts as a description list (term → value), one column on phones. */
export function FactList({
  facts,
}: {
  readonly facts: readonly { readonly term: ReactNode; readonly value: ReactNode }[];
}) {
  return (
    <dl className={css.facts}>
      {facts.map((f, i) => (
        <FactRow key={i} term={f.term} value={f.value} />
      ))}
    </dl>
  );
}

function FactRow({ term, value }: { readonly term: ReactNode; readonly value: ReactNode }) {
  return (
    <>
      <dt className={css.factTerm}>{term}</dt>
      <dd className={css.factValue}>{value}</dd>
    </>
  );
}

/** Cards in a responsive grid (one column on phones): features, channels, programmes. */
export function CardGrid({
  cards,
}: {
  readonly cards: readonly { readonly id: string; readonly title: ReactNode; readonly body: ReactNode }[];
}) {
  return (
    <ul className={css.cardList}>
      {cards.map((c) => (
        <li key={c.id} className={css.card}>
          <h3 className={css.cardTitle}>{c.title}</h3>
          <div className={css.muted}>{c.body}</div>
        </li>
      ))}
    </ul>
  );
}
