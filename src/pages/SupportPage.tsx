/**
 * Support: the answers to what traders ask most, searchable as the visitor types (every word must
 * appear in the question or its answer, in the page's language), and the ways to reach the team.
 * The whole list is in the prerendered page; the search only narrows it.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import { Callout, ContentPage, ContentSection, FaqList } from "../ui/site";
import * as css from "./pages.css";
import { SUPPORT_TOPICS } from "./support-answers";

export function SupportPage() {
  const { t } = useLingui();
  const searchId = useId();
  const [query, setQuery] = useState("");
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const topics = SUPPORT_TOPICS.map((topic) => ({
    id: topic.id,
    title: t(topic.title),
    answers: topic.answers
      .map((a) => ({ id: a.id, question: t(a.question), answer: t(a.answer) }))
      .filter((a) => {
        const text = `${a.question} ${a.answer}`.toLocaleLowerCase();
        return words.every((w) => text.includes(w));
      }),
  })).filter((topic) => topic.answers.length > 0);
  const found = topics.reduce((n, topic) => n + topic.answers.length, 0);
  // While searching, the matches are shown open: the visitor came for the answer, not the question.
  const open = words.length > 0 ? new Set(topics.flatMap((topic) => topic.answers.map((a) => a.id))) : undefined;

  return (
    <ContentPage
      title={<Trans>Support</Trans>}
      lead={
        <Trans>
          Answers to what traders ask us most. Type a few words to find yours; if it is not here, send us a report and
          our team answers.
        </Trans>
      }
      related={[
        { href: "/report", label: <Trans>Report a problem</Trans> },
        { href: "/anti-spam", label: <Trans>Anti-spam</Trans> },
        { href: "/security-policy", label: <Trans>Security policy</Trans> },
        { href: "/freeze", label: <Trans>Freeze account</Trans> },
      ]}
    >
      <div role="search" className={css.field}>
        <label htmlFor={searchId}>
          <Trans>Search the answers</Trans>
        </label>
        <input
          id={searchId}
          type="search"
          className={css.input}
          value={query}
          placeholder={t`For example: withdrawal fee`}
          onChange={(e) => setQuery(e.target.value)}
        />
        <p className={css.muted} role="status">
          {words.length === 0 ? t`Answers: ${found}` : t`Answers found: ${found}`}
        </p>
      </div>
      {topics.map((topic) => (
        <ContentSection key={topic.id} id={topic.id} title={topic.title}>
          <FaqList
            items={topic.answers.map((a) => ({ id: a.id, question: a.question, answer: <p>{a.answer}</p> }))}
            {...(open ? { open } : {})}
          />
        </ContentSection>
      ))}
      {found === 0 && (
        <Callout>
          <Trans>
            No answer matches your words. Try others, or <a href="/report">send us a report</a>.
          </Trans>
        </Callout>
      )}
      <ContentSection id="contact" title={<Trans>Still need help?</Trans>}>
        <p>
          <Trans>
            Send a report from the <a href="/report">report page</a>: choose what it is about, describe what happened
            and, if you want an answer, leave an e-mail address. You get a reference to quote when you write to us.
          </Trans>
        </p>
        <p>
          <Trans>
            We never contact you first on Telegram, WhatsApp or by phone, and never ask for your password, two-factor
            codes or API secrets. A message that does is fake: <a href="/anti-spam">report it</a>.
          </Trans>
        </p>
      </ContentSection>
    </ContentPage>
  );
}
