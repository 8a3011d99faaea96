import { I18nProvider } from "@lingui/react";
import { beforeAll, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import { activateLocale, i18n } from "../i18n";
import type { TransferEnv } from "./model";
import { TransferForm } from "./TransferDialog";

beforeAll(async () => {
  await activateLocale("en");
});

const WALLETS = [
  { type: "exchange", currency: "USD", available: 250.5 },
  { type: "margin", currency: "BTC", available: 1 },
];
const ACCOUNTS = [
  { id: null, label: "This account" },
  { id: 7, label: "sub_one" },
];
const OK = { status: 200, body: [0, "acc_tf", null, null, [], null, "SUCCESS", "ok"] };

/** A scripted exchange answering each transfer with the next reply; the bodies it was sent. */
function exchange(replies: { status: number; body: unknown }[]) {
  const sent: Record<string, unknown>[] = [];
  const call: TransferEnv["call"] = (_path, body) => {
    sent.push(body as Record<string, unknown>);
    return Promise.resolve(replies.shift() ?? { status: 0, body: null });
  };
  return { sent, call };
}

/** A select by its label: a label around a select names it with the option shown too ("To wallet Margin"). */
const select = (label: string) => page.getByLabelText(label, { exact: false });

async function show(call: TransferEnv["call"]): Promise<number[]> {
  const moved: number[] = [];
  await render(
    <I18nProvider i18n={i18n}>
      <TransferForm wallets={WALLETS} accounts={ACCOUNTS} call={call} onMoved={() => moved.push(1)} />
    </I18nProvider>,
  );
  return moved;
}

describe("the transfer form", () => {
  it("credits a sub-account with Max of the source wallet, under one request id across a retry", async () => {
    const ex = exchange([{ status: 0, body: null }, OK]);
    const moved = await show(ex.call);
    await select("To account").selectOptions("sub_one");
    await select("To wallet").selectOptions("Exchange");
    await page.getByRole("button", { name: "Max" }).click();
    await expect.element(page.getByLabelText("Amount")).toHaveValue("250.5");
    await page.getByRole("button", { name: "Transfer" }).click();
    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("The exchange could not be reached. Nothing was moved; try again.");
    await page.getByRole("button", { name: "Transfer" }).click();
    await expect.element(page.getByRole("status")).toHaveTextContent("Transfer done.");
    expect(moved).toEqual([1]);
    expect(ex.sent.map((b) => [b["user_id_dst"], b["from"], b["to"], b["amount"]])).toEqual([
      [7, "exchange", "exchange", "250.5"],
      [7, "exchange", "exchange", "250.5"],
    ]);
    expect(ex.sent[1]?.["request_id"]).toBe(ex.sent[0]?.["request_id"]);
  });

  it("keeps a refusal, worded for the reader, until the form changes", async () => {
    const ex = exchange([{ status: 500, body: ["error", 10001, "account: not-allowed"] }]);
    await show(ex.call);
    await select("To account").selectOptions("sub_one");
    await page.getByLabelText("Amount").fill("10");
    await page.getByRole("button", { name: "Transfer" }).click();
    const alert = page.getByRole("alert");
    await expect
      .element(alert)
      .toHaveTextContent(
        "This account may not do that: only a main account manages sub-accounts, and funds move only between a main account and its own sub-accounts.",
      );
    await page.getByLabelText("Amount").fill("11");
    await expect.element(alert).not.toBeInTheDocument();
  });

  it("refuses the same wallet on both sides of the own account without calling the exchange", async () => {
    const ex = exchange([]);
    await show(ex.call);
    await select("To wallet").selectOptions("Exchange");
    await page.getByLabelText("Amount").fill("1");
    await page.getByRole("button", { name: "Transfer" }).click();
    await expect.element(page.getByRole("alert")).toHaveTextContent("Choose two different wallets.");
    expect(ex.sent).toHaveLength(0);
  });
});
