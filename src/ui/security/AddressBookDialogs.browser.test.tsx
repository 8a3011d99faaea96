import { I18nProvider } from "@lingui/react";
import { beforeAll, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-react";
import type { AddressBookEntry } from "../../protocol";
import { activateLocale, i18n } from "../i18n";
import { AddAddressDialog, type AddressDraft } from "./AddressBookDialogs";

const SEGWIT = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const IN_BOOK: AddressBookEntry = {
  id: 1,
  currency: "BTC",
  method: "bitcoin",
  label: "Old",
  address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
  paymentId: "",
  beneficiary: { type: "self" },
  status: "confirmed",
  mtsCreate: 1,
  mtsConfirm: 2,
};

beforeAll(async () => {
  await activateLocale("en");
});

async function open(): Promise<AddressDraft[]> {
  const sent: AddressDraft[] = [];
  await render(
    <I18nProvider i18n={i18n}>
      <AddAddressDialog
        open
        initial={null}
        entries={[IN_BOOK]}
        rowError={null}
        onClose={() => {}}
        onNext={(d) => sent.push(d)}
      />
    </I18nProvider>,
  );
  return sent;
}

describe("the add-address dialog", () => {
  it("checks each address as it is typed, flags the book's own, and sends the filled rows only", async () => {
    const sent = await open();
    const dialog = page.getByTestId("add-address-dialog");
    await dialog.getByLabelText("Label").fill("Cold storage");
    await dialog.getByLabelText("Address", { exact: true }).fill(`${SEGWIT.slice(0, -1)}p`);
    await expect.element(dialog.getByText(/checksum does not match/)).toBeVisible();
    await dialog.getByLabelText("Address", { exact: true }).fill("LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9");
    await expect.element(dialog.getByText(/belongs to another network/)).toBeVisible();
    await dialog.getByLabelText("Address", { exact: true }).fill(IN_BOOK.address);
    await expect.element(dialog.getByText("This address is in your address book already.")).toBeVisible();
    // A refused row keeps the dialog: Continue sends nothing.
    await dialog.getByRole("button", { name: "Continue" }).click();
    expect(sent).toEqual([]);

    await dialog.getByLabelText("Address", { exact: true }).fill(SEGWIT.toUpperCase());
    await expect.element(dialog.getByText("A valid Bitcoin address.")).toBeVisible();
    await dialog.getByRole("button", { name: "Add another address" }).click();
    await expect.element(dialog.getByLabelText("Address 2")).toBeVisible();
    await dialog.getByRole("button", { name: "Continue" }).click();
    expect(sent).toEqual([
      {
        currency: "BTC",
        method: "bitcoin",
        label: "Cold storage",
        rows: [{ address: SEGWIT.toUpperCase(), paymentId: "" }],
      },
    ]);
  });

  it("asks for a destination tag on XRP and checks it", async () => {
    await open();
    const dialog = page.getByTestId("add-address-dialog");
    await expect.element(dialog.getByLabelText("Destination tag (optional)")).not.toBeInTheDocument();
    await dialog.getByLabelText("Currency", { exact: false }).selectOptions("XRP");
    await expect.element(dialog.getByLabelText("Network", { exact: false })).toHaveValue("ripple");
    await dialog.getByLabelText("Address", { exact: true }).fill("rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh");
    await dialog.getByLabelText("Destination tag (optional)").fill("0123");
    await expect.element(dialog.getByText("A destination tag is a whole number without leading zeros.")).toBeVisible();
    await dialog.getByLabelText("Destination tag (optional)").fill("123");
    await expect.element(dialog.getByText("A valid XRP Ledger address.")).toBeVisible();
  });
});
