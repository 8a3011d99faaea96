import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import { notificationCodec, type Notification } from "../../protocol";
import { ExchangeNoticeTracker, exchangeNoticeKind, exchangeNoticeText } from "./exchange-notices";
import { activateLocale, i18n as appI18n } from "../i18n";

function n(mts: number, type: string, status: string, text: string): Notification {
  const d = notificationCodec.decode([mts, type, null, null, {}, null, status, text]);
  if (!d.ok) throw new Error("bad notification");
  return d.value;
}

const en = setupI18n({ locale: "en", messages: { en: {} } });

describe("the exchange's notifications on the desk", () => {
  it("words known types by their type and status, with the exchange's reason on failure", () => {
    expect(exchangeNoticeText(en, n(1, "fon-req", "SUCCESS", "Submitting funding offer of 100 USD"))).toBe(
      "Funding offer placed.",
    );
    expect(exchangeNoticeText(en, n(1, "on-req", "ERROR", "Invalid order: not enough balance"))).toBe(
      "Order refused: Invalid order: not enough balance",
    );
    expect(exchangeNoticeText(en, n(1, "acc_tf", "FAILURE", "wallet: insufficient"))).toBe(
      "Transfer failed: wallet: insufficient",
    );
    expect(
      exchangeNoticeText(en, n(1, "wallet_withdrawal_completed", "SUCCESS", "Withdrawal of 1 BTC completed.")),
    ).toBe("Withdrawal completed.");
  });

  it("keeps the exchange's text for a type it does not know", () => {
    expect(exchangeNoticeText(en, n(1, "pos_liq", "INFO", "Position 7 liquidated"))).toBe(
      "Message from the exchange: Position 7 liquidated",
    );
    expect(exchangeNoticeText(en, n(1, "xyz-req", "ERROR", "Something broke"))).toBe(
      "The exchange reports a problem: Something broke",
    );
  });

  it("does not word an API key's custom message as the exchange's", () => {
    expect(exchangeNoticeText(en, n(1, "ucm-notify", "INFO", "Withdrawal confirmed, enter your code"))).toBe(
      "Message from an app connected to your account: Withdrawal confirmed, enter your code",
    );
  });

  it("is translated", async () => {
    await activateLocale("ru");
    const i18n = appI18n;
    const text = exchangeNoticeText(i18n, n(1, "pos_liq", "INFO", "Position 7 liquidated"));
    expect(text).toContain("Position 7 liquidated");
    expect(text).not.toContain("Message from the exchange");
    expect(exchangeNoticeText(i18n, n(1, "oc-req", "SUCCESS", "x"))).not.toBe("Order cancelled.");
  });

  it("sorts each notice under its notify_* kind", () => {
    expect(exchangeNoticeKind(n(1, "oc-req", "SUCCESS", ""))).toBe("orders");
    expect(exchangeNoticeKind(n(1, "foc-req", "SUCCESS", ""))).toBe("funding");
    expect(exchangeNoticeKind(n(1, "acc_tf", "SUCCESS", ""))).toBe("main");
  });

  it("tells only what arrived after the first view, oldest first", () => {
    const tracker = new ExchangeNoticeTracker();
    const a = n(1000, "acc_tf", "SUCCESS", "a");
    expect(tracker.update([a])).toEqual([]);
    const b = n(2000, "fon-req", "SUCCESS", "b");
    const c = n(3000, "foc-req", "SUCCESS", "c");
    expect(tracker.update([c, b, a]).map((x) => x.message)).toEqual(["b", "c"]);
    expect(tracker.update([c, b, a])).toEqual([]);
  });
});
