/** Report a problem: the report form (docs/product-rules.md#site-reports) and where urgent cases go instead. */
import { Trans } from "@lingui/react/macro";
import { Callout, ContentPage, ContentSection } from "../ui/site";
import { SiteReportForm } from "./SiteReportForm";

export function ReportPage() {
  return (
    <ContentPage
      title={<Trans>Report a problem</Trans>}
      lead={
        <Trans>
          Something wrong with an order, a deposit, your account or the site? Tell us here. Our team reads every report,
          and you get a reference to quote when you write to us.
        </Trans>
      }
      related={[
        { href: "/support", label: <Trans>Support</Trans> },
        { href: "/bug-bounty", label: <Trans>Bug bounty</Trans> },
        { href: "/anti-spam", label: <Trans>Anti-spam</Trans> },
      ]}
    >
      <Callout tone="warning">
        <Trans>
          If someone else may have access to your account, do not wait for an answer: <a href="/freeze">freeze it</a>{" "}
          first.
        </Trans>
      </Callout>
      <ContentSection id="form" title={<Trans>Your report</Trans>}>
        <SiteReportForm kind="problem" />
      </ContentSection>
      <ContentSection id="after" title={<Trans>What happens next</Trans>}>
        <ul>
          <li>
            <Trans>The report is stored with its reference; only our support and security teams read it.</Trans>
          </li>
          <li>
            <Trans>
              If you left an e-mail address, we answer there. Without one, we still act on the report but cannot write
              back.
            </Trans>
          </li>
          <li>
            <Trans>
              Security vulnerabilities are handled under the <a href="/bug-bounty">bug bounty</a>: choose "A security
              vulnerability" and keep the details between you and us until it is fixed.
            </Trans>
          </li>
        </ul>
      </ContentSection>
    </ContentPage>
  );
}
